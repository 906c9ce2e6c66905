import { memberRoute } from "@/lib/adapters/member-route";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { completeStripeConnection } from "@/lib/payments/flows/complete-stripe-connection";

const back = (query: string) => `${appUrl()}/settings/payments?${query}`;

/**
 * GET /api/auth/payproc/callback (docs/decisions.md, "Stripe Connect"): Stripe Connect sends the member back
 * here with code and state. The state must be the one signed for this member's current workspace; the
 * account id and live mode are taken from Stripe's token answer only. A member route that redirects:
 * every outcome is a redirect back to the settings page (sign-in without a session), and the code
 * is exchanged at Stripe before any transaction opens; the flow writes the connection and its
 * audit row (connection.payments_connected) as the member. Every refusal redirects with its
 * AppError code as `?error=` (a decline at Stripe: `unauthenticated`); the page has the texts.
 */
export const GET = memberRoute(
  { name: "payproc callback", roles: ADMIN_ROLES, redirect: (error) => back(`error=${error.code}`) },
  async (request, _params, ctx) => {
    const url = new URL(request.url);
    // the member declined at Stripe
    if (url.searchParams.get("error")) return back("error=unauthenticated");
    const result = await completeStripeConnection({
      claims: ctx.claims,
      workspaceId: ctx.workspaceId,
      code: url.searchParams.get("code") ?? "",
      state: url.searchParams.get("state") ?? "",
      ip: ctx.ip,
    });
    if ("error" in result) return back(`error=${result.error.code}`);
    return back("connected=1");
  },
);
