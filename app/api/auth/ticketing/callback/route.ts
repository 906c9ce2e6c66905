import { publicRoute } from "@/lib/adapters/public-route";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { completeTicketingConnection } from "@/lib/events/ticketing/flows/complete-ticketing-connection";
import { clientIp } from "@/lib/http/client-ip";

const back = (query: string) => Response.redirect(`${appUrl()}/settings/ticketing?${query}`, 303);

/**
 * GET /api/auth/ticketing/callback (spec 4.5): Eventbrite sends the member back here with
 * code and state. The state must be the one signed for this member's current workspace;
 * then the connection is completed (Eventbrite called outside any transaction) and the first
 * import is handed to the job engine in the transaction that stores the connection, with its
 * audit row (connection.ticketing_connected). A public route, as the Stripe callback: every
 * outcome is a redirect back to the settings page (sign-in without a session).
 */
export const GET = publicRoute({ name: "ticketing callback" }, async (request) => {
  const url = new URL(request.url);
  if (url.searchParams.get("error")) return back("error=denied");
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) return back("error=forbidden");
  // the flow uses the service door and checks the role (docs/decisions.md, "Least-privilege RLS")
  const result = await completeTicketingConnection({
    workspaceId: ctx.workspace.workspaceId,
    userId: ctx.userId,
    email: ctx.claims.email,
    ip: clientIp(request.headers),
    code: url.searchParams.get("code") ?? "",
    state: url.searchParams.get("state") ?? "",
  });
  return back("error" in result ? `error=${result.error}` : "connected=1");
});
