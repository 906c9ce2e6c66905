import { describe, expect, test } from "vitest";
import { decideRefundTier, type IntentRow } from "@/lib/payments/refund-tiers";

const rows = (...paid: [number, number?][]): IntentRow[] =>
  paid.map(([p, r = 0], i) => ({ id: `t${i + 1}`, paidCents: p, refundedCents: r }));

describe("the three tiers of spec 3.1, on the cumulative refund delta", () => {
  test("3.1 tier 1: the delta covers the whole remaining balance; every row with a balance is refunded", () => {
    expect(decideRefundTier(rows([1000], [2000]), 3000)).toEqual({
      tier: 1,
      deltaCents: 3000,
      refundIds: ["t1", "t2"],
    });
    expect(decideRefundTier(rows([1000, 1000], [2000, 500]), 3000)).toEqual({
      tier: 1,
      deltaCents: 1500,
      refundIds: ["t2"],
    });
    expect(decideRefundTier(rows([1000]), 5000)).toMatchObject({ tier: 1 });
  });

  test("3.1 tier 2: the delta equals exactly one row's remaining balance", () => {
    expect(decideRefundTier(rows([1000], [2000], [3000]), 2000)).toEqual({
      tier: 2,
      deltaCents: 2000,
      refundIds: ["t2"],
    });
    expect(decideRefundTier(rows([1000], [2000, 500]), 2000)).toEqual({
      tier: 2,
      deltaCents: 1500,
      refundIds: ["t2"],
    });
  });

  test("3.1 tier 3: no row matches, or several do", () => {
    expect(decideRefundTier(rows([1000], [2000]), 1500)).toEqual({
      tier: 3,
      deltaCents: 1500,
      reason: "no_match",
      matchingIds: [],
    });
    expect(decideRefundTier(rows([2000], [2000], [3000]), 2000)).toEqual({
      tier: 3,
      deltaCents: 2000,
      reason: "several_match",
      matchingIds: ["t1", "t2"],
    });
  });

  test("refund delta: a replayed or late event (delta <= 0) and a fully refunded intent apply nothing", () => {
    expect(decideRefundTier(rows([1000, 1000], [2000]), 1000)).toEqual({ tier: null, deltaCents: 0 });
    expect(decideRefundTier(rows([1000, 1000], [2000]), 500)).toEqual({ tier: null, deltaCents: -500 });
    expect(decideRefundTier(rows([1000, 1000]), 1500)).toEqual({ tier: null, deltaCents: 500 });
    expect(decideRefundTier([], 1500)).toEqual({ tier: null, deltaCents: 1500 });
  });

  test("8.1: cents, so 0.10 + 0.20 refunded as 0.30 is tier 1", () => {
    expect(decideRefundTier(rows([10], [20]), 30)).toMatchObject({ tier: 1 });
  });
});
