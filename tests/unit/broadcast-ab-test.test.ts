import { describe, expect, test } from "vitest";
import { randomUUID } from "node:crypto";
import { AB_BUCKETS, abAssignment, abBucket } from "@/lib/email/ab-split";
import { intervalsOverlap, wilsonInterval } from "@/lib/email/wilson-interval";

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

  test.each([10, 25, 50])("over 10,000 contacts the test share is close to %i percent, the variants even", (share) => {
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
  });

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
