import { describe, expect, test } from "vitest";
import { formatPhoneForDisplay, normalizePhoneForCompare } from "@/lib/contacts/phone";

describe("4.10 step 1: US phone normalisation before comparing", () => {
  test("strips non-digits and the leading 1 of 11-digit numbers", () => {
    expect(normalizePhoneForCompare("(202) 555-0143")).toBe("2025550143");
    expect(normalizePhoneForCompare("+1 202 555 0143")).toBe("2025550143");
    expect(normalizePhoneForCompare("12025550143")).toBe("2025550143");
    expect(normalizePhoneForCompare("+44 20 7946 0958")).toBe("442079460958");
    expect(normalizePhoneForCompare(null)).toBe("");
  });
});

describe("4.15 phone display", () => {
  test("10-digit and +1 E.164 numbers display as (XXX) XXX-XXXX", () => {
    expect(formatPhoneForDisplay("2025550143")).toBe("(202) 555-0143");
    expect(formatPhoneForDisplay("+12025550143")).toBe("(202) 555-0143");
  });
  test("others display as stored", () => {
    expect(formatPhoneForDisplay("12025550143")).toBe("12025550143");
    expect(formatPhoneForDisplay("202-555-0143")).toBe("202-555-0143");
    expect(formatPhoneForDisplay("+442079460958")).toBe("+442079460958");
    expect(formatPhoneForDisplay("")).toBe("");
  });
});
