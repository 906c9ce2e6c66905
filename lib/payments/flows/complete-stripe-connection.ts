import type Stripe from "stripe";
import { recordFlowAudit } from "@/lib/audit/record-audit";
import { verifyValue } from "@/lib/auth/tokens";
import { withUser, type Claims } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { savePayprocConnection } from "../save-payproc-connection";
import { STRIPE_CONNECT_PURPOSE } from "../stripe-connect";
import { stripeClient } from "../stripe-client";
import { log } from "@/lib/observability/log";

/**
 * Stripe Connect OAuth callback. The state must be one this service signed for this member
 * in this workspace (else Stripe is never called); the code is exchanged with
 * stripe.oauth.token, and the connection's payproc_account_id and livemode are Stripe's answer
 * (stripe_user_id, livemode), never anything the member typed. savePayprocConnection checks,
 * as the member, that they are an owner or admin, then writes the row through the service
 * door. An account already connected to another workspace is refused with the same outcome as
 * any other failure to save, and the grant Stripe just gave is deauthorised. The audit row
 * (connection.payments_connected) is written with the row, as the member.
 *
 * Refusals (the callback redirects with their code as `?error=`): a state not signed for this
 * member and workspace, or no code, `invalid`; Stripe refusing the code or answering no account
 * `provider_failed`; any failure to save `conflict`, whatever its cause, so the page names no
 * other workspace (docs/decisions.md, "Stripe Connect").
 */
export async function completeStripeConnection(
  input: { claims: Claims; workspaceId: string; code: string; state: string; ip?: string | null },
  deps: { stripe?: Stripe } = {},
): Promise<Result<{ accountId: string; livemode: boolean }>> {
  const state = await verifyValue<{ workspaceId: string; userId: string }>(
    STRIPE_CONNECT_PURPOSE,
    input.state,
  );
  if (!state || state.workspaceId !== input.workspaceId || state.userId !== input.claims.sub || !input.code)
    return refused("invalid", "The connection request could not be verified.");

  let answer: Stripe.OAuthToken;
  try {
    answer = await (deps.stripe ?? stripeClient()).oauth.token({
      grant_type: "authorization_code",
      code: input.code,
    });
  } catch {
    return refused("provider_failed", "Stripe did not accept the authorisation.");
  }
  const accountId = answer.stripe_user_id;
  if (!accountId || !/^acct_[A-Za-z0-9]+$/.test(accountId))
    return refused("provider_failed", "Stripe answered no account.");
  const livemode = answer.livemode === true;

  const saved = await withUser(input.claims, async (db) => {
    const result = await savePayprocConnection(db, {
      workspaceId: input.workspaceId,
      payprocAccountId: accountId,
      livemode,
    });
    if ("data" in result)
      await recordFlowAudit(db, input.claims, "connection.payments_connected", {
        workspaceId: input.workspaceId,
        target: ["payproc_connection", input.workspaceId],
        after: { payprocAccountId: accountId, livemode },
        ip: input.ip ?? null,
      });
    return result;
  }).catch(() => refused("conflict"));
  if ("error" in saved) {
    // Stripe has granted the platform access to the account; a grant no workspace holds must
    // not stay behind (docs/decisions.md, "The database is the boundary")
    await deauthorizeStripeAccount(accountId, deps);
    return refused("conflict", "This Stripe account could not be connected to this workspace.");
  }
  return { data: { accountId, livemode } };
}

/**
 * After a disconnect: tells Stripe the platform no longer acts for the account, so a stale
 * grant is not left behind. A failure is logged; the connection is gone from the service anyway.
 */
export async function deauthorizeStripeAccount(accountId: string, deps: { stripe?: Stripe } = {}) {
  const clientId = process.env.STRIPE_CONNECT_CLIENT_ID;
  if (!clientId) return;
  await (deps.stripe ?? stripeClient()).oauth
    .deauthorize({ client_id: clientId, stripe_user_id: accountId })
    .catch((error) => log.error({ err: error }, "could not deauthorize the Stripe account"));
}
