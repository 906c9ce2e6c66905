import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { AB_BUCKETS, abAssignment, abBucket } from "@/lib/email/ab-split";
import { intervalsOverlap, wilsonInterval } from "@/lib/email/wilson-interval";
import { AB_MIN_EVENTS, pickAbWinner, type AbVariantNumbers } from "@/lib/email/ab-decision";

describe("A/B split: a hash of the contact and the broadcast", () => {
  test("the same contact and broadcast always get the same answer", () => {
    const contact = randomUUID();
    const broadcast = randomUUID();
    const first = abAssignment(contact, broadcast, 30, 3);
    for (let i = 0; i < 5; i++) expect(abAssignment(contact, broadcast, 30, 3)).toEqual(first);
    expect(abBucket(contact, broadcast)).toBeGreaterThanOrEqual(0);
    expect(abBucket(contact, broadcast)).toBeLessThan(AB_BUCKETS);
  });

  test("a known value: first 6 bytes of sha256('abc:def') modulo 10,000", () => {
    // sha256("abc:def") starts ec5952851b80 = 259868380699520 (Postgres gives the same: abBucketSql)
    expect(abBucket("abc", "def")).toBe(259868380699520 % AB_BUCKETS);
  });

  test.each([10, 25, 50])(
    "over 10,000 contacts the test share is close to %i percent, the variants even",
    (share) => {
      const broadcast = randomUUID();
      const perVariant = [0, 0, 0, 0];
      let inTest = 0;
      for (let i = 0; i < 10_000; i++) {
        const a = abAssignment(randomUUID(), broadcast, share, 4);
        if (a.inTest) {
          inTest += 1;
          perVariant[a.variant!] += 1;
        } else expect(a.variant).toBeNull();
      }
      // a binomial's standard deviation at n = 10,000 is at most 50: four of them either side
      expect(Math.abs(inTest - share * 100)).toBeLessThan(200);
      for (const n of perVariant) expect(Math.abs(n - inTest / 4)).toBeLessThan(inTest * 0.1);
    },
  );

  test("a larger share keeps everyone a smaller one had, in the same variant", () => {
    const broadcast = randomUUID();
    for (let i = 0; i < 500; i++) {
      const contact = randomUUID();
      const small = abAssignment(contact, broadcast, 10, 2);
      if (small.inTest) expect(abAssignment(contact, broadcast, 50, 2)).toEqual(small);
    }
  });
});

describe("Wilson score interval (95%)", () => {
  test("textbook values", () => {
    // 10 of 100: 0.0552 – 0.1744 (Newcombe 1998, method 3)
    const i = wilsonInterval(10, 100);
    expect(i.rate).toBe(0.1);
    expect(i.low).toBeCloseTo(0.0552, 4);
    expect(i.high).toBeCloseTo(0.1744, 4);
    // 81 of 263: 0.2553 – 0.3662
    const j = wilsonInterval(81, 263);
    expect(j.low).toBeCloseTo(0.2553, 4);
    expect(j.high).toBeCloseTo(0.3662, 4);
  });

  test("bounds stay within 0 and 1 at the edges; no trials is the whole range", () => {
    expect(wilsonInterval(0, 20)).toMatchObject({ rate: 0, low: 0 });
    expect(wilsonInterval(0, 20).high).toBeCloseTo(0.1611, 4);
    expect(wilsonInterval(20, 20)).toMatchObject({ rate: 1, high: 1 });
    expect(wilsonInterval(0, 0)).toEqual({ rate: 0, low: 0, high: 1 });
  });

  test("more trials make the interval narrower", () => {
    const small = wilsonInterval(5, 50);
    const large = wilsonInterval(500, 5000);
    expect(large.high - large.low).toBeLessThan(small.high - small.low);
  });

  test("overlap", () => {
    expect(intervalsOverlap(wilsonInterval(30, 50), wilsonInterval(0, 50))).toBe(false);
    expect(intervalsOverlap(wilsonInterval(12, 50), wilsonInterval(10, 50))).toBe(true);
  });
});

describe("the winner (pickAbWinner)", () => {
  const v = (position: number, sent: number, humanOpens: number, extra: Partial<AbVariantNumbers> = {}) => ({
    position,
    sent,
    humanOpens,
    humanClicks: 0,
    purchasers: 0,
    revenue: 0,
    ...extra,
  });

  test("the best rate wins when its interval is clear of the runner-up's", () => {
    expect(pickAbWinner([v(0, 50, 2), v(1, 50, 30)], "opens")).toEqual({
      winner: 1,
      note: "Variant B won by human opens: 60.0% human opens.",
    });
  });

  test("a rate, not a count: a smaller variant with fewer opens may win", () => {
    expect(pickAbWinner([v(0, 400, 20), v(1, 100, 40), v(2, 100, 4)], "opens").winner).toBe(1);
  });

  test(`fewer than ${AB_MIN_EVENTS} events keep A and say so`, () => {
    expect(pickAbWinner([v(0, 50, 0), v(1, 50, 19)], "opens")).toEqual({
      winner: 0,
      note: "Kept variant A: too few events (19 human opens in all, at least 20 needed).",
    });
  });

  test("an exact tie keeps A and says so", () => {
    expect(pickAbWinner([v(0, 50, 10), v(1, 50, 20), v(2, 50, 20)], "opens")).toEqual({
      winner: 0,
      note: "Kept variant A: a tie between B and C.",
    });
  });

  test("overlapping intervals keep A and say so", () => {
    expect(pickAbWinner([v(0, 50, 12), v(1, 50, 14)], "opens").note).toBe(
      "Kept variant A: no clear winner (the 95% intervals of B and A overlap).",
    );
  });

  test("clicks count human clicks; revenue ranks by revenue per email, events are purchasers", () => {
    expect(
      pickAbWinner([v(0, 100, 90, { humanClicks: 2 }), v(1, 100, 0, { humanClicks: 40 })], "clicks").winner,
    ).toBe(1);
    const revenue = pickAbWinner(
      [v(0, 100, 0, { purchasers: 15, revenue: 150 }), v(1, 100, 0, { purchasers: 10, revenue: 400 })],
      "revenue",
    );
    expect(revenue).toEqual({ winner: 1, note: "Variant B won by revenue: 400 cents per email." });
  });
});
