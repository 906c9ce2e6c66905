/** One transactions row of a payment intent, in cents. */
export interface IntentRow {
  id: string;
  paidCents: number;
  refundedCents: number;
}

export type TierDecision =
  /** nothing new to apply: the delta is zero or negative (a replayed or late event) or nothing is left */
  | { tier: null; deltaCents: number }
  /** tier 1: the delta covers everything left; every row with a balance is refunded */
  | { tier: 1; deltaCents: number; refundIds: string[] }
  /** tier 2: the delta equals the remaining balance of exactly one row */
  | { tier: 2; deltaCents: number; refundIds: [string] }
  /** tier 3: no single row matches, or several do; nothing changes, a person decides */
  | { tier: 3; deltaCents: number; reason: "no_match" | "several_match"; matchingIds: string[] };

export const remainingCents = (row: IntentRow) => row.paidCents - row.refundedCents;

/**
 * Spec 3.1, the three tiers of charge.refunded, in integer cents. The delta is the charge's
 * cumulative amount_refunded minus what the intent's rows already record (docs/decisions.md, "Refunds"), so a
 * replayed event, or one that arrives after a later one, applies nothing.
 */
export function decideRefundTier(rows: IntentRow[], chargeRefundedCents: number): TierDecision {
  const recorded = rows.reduce((sum, row) => sum + row.refundedCents, 0);
  const deltaCents = chargeRefundedCents - recorded;
  const open = rows.filter((row) => remainingCents(row) > 0);
  const totalRemaining = open.reduce((sum, row) => sum + remainingCents(row), 0);
  if (deltaCents <= 0 || open.length === 0) return { tier: null, deltaCents };
  if (deltaCents >= totalRemaining) return { tier: 1, deltaCents, refundIds: open.map((row) => row.id) };
  const matching = open.filter((row) => remainingCents(row) === deltaCents).map((row) => row.id);
  if (matching.length === 1) return { tier: 2, deltaCents, refundIds: [matching[0]] };
  return {
    tier: 3,
    deltaCents,
    reason: matching.length === 0 ? "no_match" : "several_match",
    matchingIds: matching,
  };
}
