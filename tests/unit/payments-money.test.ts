import { describe, expect, test } from "vitest";
import { centsToNumeric, dollarsToCents, formatMoney, toCents } from "@/lib/payments/money";

describe("money in integer cents", () => {
  test("numeric(10,2) strings become cents without floating point", () => {
    expect(toCents("0.10") + toCents("0.20")).toBe(toCents("0.30"));
    expect(toCents("19.99")).toBe(1999);
    expect(toCents("12.3")).toBe(1230);
    expect(toCents("7")).toBe(700);
    expect(toCents("-4.05")).toBe(-405);
    expect(toCents(null)).toBe(0);
    expect(() => toCents("twelve")).toThrow();
  });

  test("cents go back as numeric literals", () => {
    expect(centsToNumeric(1999)).toBe("19.99");
    expect(centsToNumeric(5)).toBe("0.05");
    expect(centsToNumeric(0)).toBe("0.00");
    expect(centsToNumeric(-405)).toBe("-4.05");
    expect(() => centsToNumeric(1.5)).toThrow();
  });

  test("4.15: a dollar amount is rounded to whole cents", () => {
    expect(dollarsToCents(0.1 + 0.2)).toBe(30);
    expect(dollarsToCents(19.99)).toBe(1999);
    expect(dollarsToCents(0.004)).toBe(0);
    expect(dollarsToCents(1234.56)).toBe(123456);
  });

  test("amounts are shown with their currency", () => {
    expect(formatMoney(123456)).toBe("$1,234.56");
    expect(formatMoney(5, "usd")).toBe("$0.05");
    expect(formatMoney(-1500)).toBe("-$15.00");
    expect(formatMoney(999, "eur")).toBe("9.99 EUR");
  });
});
