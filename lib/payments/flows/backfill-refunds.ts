import { refused, type Result } from "@/lib/errors/app-error";
import type Stripe from "stripe";
import { withService } from "@/lib/db/doors";
import { idOf } from "../checkout-from-stripe";
import { inParallel, NO_CONNECTION, type BackfillDeps } from "./backfill-payment-intents";
import { applyChargeRefund } from "../refund-engine";
import { connectionOfWorkspace } from "../resolve-connection";
import { onAccount } from "../stripe-client";
import { QUICK_RETRY, withStripeRetry } from "../stripe-retry";

export interface BackfillRefundsInput {
  workspaceId: string;
  /** Unix seconds, sent as created[gte] and created[lte] */
  since?: number;
  until?: number;
  /** the cursor: Stripe's starting_after (a refund id) */
  startingAfter?: string;
  limit?: number;
}

export interface BackfillRefundsResult {
  refunds: number;
  charges: number;
  /** charges by tier; 'unchanged' covers tier 3 (automations off) and already-applied refunds */
  applied: { tier1: number; tier2: number; unchanged: number; unmatched: number };
  /** pass as starting_after for the next page; null at the end */
  nextCursor: string | null;
}

/**
 * Spec 4.12: one page of the connected account's refunds, de-duplicated by charge; each
 * charge is fetched in full and its cumulative amount_refunded passed through the three-tier
 * engine with automations off (no trigger, no review task, no notification). A failed Stripe
 * call fails the page (after retries) so that no cursor moves past an unprocessed charge.
 */
export async function backfillRefunds(
  deps: BackfillDeps,
  input: BackfillRefundsInput,
): Promise<Result<BackfillRefundsResult>> {
  const door = deps.door ?? withService;
  const connection = await door((db) => connectionOfWorkspace(db, input.workspaceId));
  if (!connection) return refused("conflict", NO_CONNECTION);
  const options = onAccount(connection.payproc_account_id);
  const retry = deps.retry ?? QUICK_RETRY;

  const created: Stripe.RangeQueryParam = {};
  if (input.since !== undefined) created.gte = input.since;
  if (input.until !== undefined) created.lte = input.until;
  const page = await withStripeRetry(
    () =>
      deps.stripe.refunds.list(
        {
          limit: input.limit ?? 100,
          ...(input.startingAfter ? { starting_after: input.startingAfter } : {}),
          ...(Object.keys(created).length ? { created } : {}),
        },
        options,
      ),
    retry,
  );

  const chargeIds = [
    ...new Set(page.data.map((r) => idOf(r.charge)).filter((id): id is string => Boolean(id))),
  ];
  const charges: Stripe.Charge[] = [];
  await inParallel(chargeIds, deps.concurrency ?? 4, async (id) => {
    charges.push(await withStripeRetry(() => deps.stripe.charges.retrieve(id, {}, options), retry));
  });

  const applied = { tier1: 0, tier2: 0, unchanged: 0, unmatched: 0 };
  for (const charge of charges) {
    const paymentIntentId = idOf(charge.payment_intent);
    if (!paymentIntentId) {
      applied.unmatched += 1;
      continue;
    }
    const result = await door((db) =>
      applyChargeRefund(db, {
        workspaceId: input.workspaceId,
        paymentIntentId,
        chargeRefundedCents: charge.amount_refunded,
        runAutomations: false,
      }),
    );
    if (result.matched === 0) applied.unmatched += 1;
    else if (result.tier === 1) applied.tier1 += 1;
    else if (result.tier === 2) applied.tier2 += 1;
    else applied.unchanged += 1;
  }
  const last = page.data[page.data.length - 1];
  return {
    data: {
      refunds: page.data.length,
      charges: chargeIds.length,
      applied,
      nextCursor: page.has_more && last ? last.id : null,
    },
  };
}
