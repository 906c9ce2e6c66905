import { memberRoute } from "@/lib/adapters/member-route";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { completeTicketingConnection } from "@/lib/events/ticketing/flows/complete-ticketing-connection";

const back = (query: string) => `${appUrl()}/settings/ticketing?${query}`;

/**
 * GET /api/auth/ticketing/callback (spec 4.5): Eventbrite sends the member back here with
 * code and state. The state must be the one signed for this member's current workspace;
 * then the connection is completed (Eventbrite called outside any transaction) and the first
 * import is handed to the job engine in the transaction that stores the connection, with its
 * audit row (connection.ticketing_connected). A member route that redirects, as the Stripe
 * callback: every outcome is a redirect back to the settings page (sign-in without a session),
 * a refusal with its AppError code as `?error=` (a decline at Eventbrite: `unauthenticated`).
 */
export const GET = memberRoute(
  { name: "ticketing callback", roles: ADMIN_ROLES, redirect: (error) => back(`error=${error.code}`) },
  async (request, _params, ctx) => {
    const url = new URL(request.url);
    // the member declined at Eventbrite
    if (url.searchParams.get("error")) return back("error=unauthenticated");
    // the flow uses the service door and checks the role (docs/decisions.md, "Least-privilege RLS")
    const result = await completeTicketingConnection({
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
      email: ctx.claims.email,
      ip: ctx.ip,
      code: url.searchParams.get("code") ?? "",
      state: url.searchParams.get("state") ?? "",
    });
    return back("error" in result ? `error=${result.error.code}` : "connected=1");
  },
);
