import { publicRoute } from "@/lib/adapters/public-route";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { clientIp } from "@/lib/http/client-ip";
import { completeStripeConnection } from "@/lib/payments/flows/complete-stripe-connection";

const back = (query: string) => Response.redirect(`${appUrl()}/settings/payments?${query}`, 303);

/**
 * GET /api/auth/payproc/callback (docs/decisions.md, "Stripe Connect"): Stripe Connect sends the member back
 * here with code and state. The state must be the one signed for this member's current workspace; the
 * account id and live mode are taken from Stripe's token answer only. A public route, not a
 * member route: every outcome is a redirect back to the settings page (sign-in without a
 * session), and the code is exchanged at Stripe before any transaction opens; the flow writes
 * the connection and its audit row (connection.payments_connected) as the member.
 */
export const GET = publicRoute({ name: "payproc callback" }, async (request) => {
  const url = new URL(request.url);
  if (url.searchParams.get("error")) return back("error=denied");
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) return back("error=forbidden");
  const result = await completeStripeConnection({
    claims: ctx.claims,
    workspaceId: ctx.workspace.workspaceId,
    code: url.searchParams.get("code") ?? "",
    state: url.searchParams.get("state") ?? "",
    ip: clientIp(request.headers),
  });
  if ("error" in result) return back(`error=${result.error}`);
  return back("connected=1");
});
