import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { appUrl } from "@/lib/config";
import { completeStripeConnection } from "@/lib/payments/flows/complete-stripe-connection";

const back = (query: string) => Response.redirect(`${appUrl()}/settings/payments?${query}`, 303);

/**
 * GET /api/auth/payproc/callback (attack 2): Stripe Connect sends the member back here with
 * code and state. The state must be the one signed for this member's current workspace; the
 * account id and live mode are taken from Stripe's token answer only.
 */
export async function GET(request: Request) {
  const url = new URL(request.url);
  if (url.searchParams.get("error")) return back("error=denied");
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) return back("error=forbidden");
  const result = await completeStripeConnection({
    claims: ctx.claims,
    workspaceId: ctx.workspace.workspaceId,
    code: url.searchParams.get("code") ?? "",
    state: url.searchParams.get("state") ?? "",
  });
  if ("error" in result) return back(`error=${result.error}`);
  return back("connected=1");
}
