import { describe, expect, test } from "vitest";
import type { ContactRow } from "@/lib/contacts/contact-row";
import { mergeConsent } from "@/lib/contacts/merge/merge-consent";
import { resolveMergedFields } from "@/lib/contacts/merge/merge-fields";

const person = (fields: Partial<ContactRow>) =>
  ({
    email: "x@example.test",
    first_name: null,
    last_name: null,
    phone: null,
    address_line1: null,
    address_line2: null,
    city: null,
    state: null,
    postal_code: null,
    country: null,
    birth_month: null,
    birth_day: null,
    assigned_user_id: null,
    is_subscribed: false,
    opt_in_timestamp: null,
    opt_in_source: null,
    opt_in_ip: null,
    unsubscribed_at: null,
    ...fields,
  }) as ContactRow;

describe("merge fields", () => {
  test("a field keeps A's value unless chosen from B; an empty field of A takes B's by default", () => {
    const a = person({ email: "a@example.test", first_name: "Ada", phone: null });
    const b = person({ email: "b@example.test", first_name: "Augusta", phone: "2025550143" });
    expect(resolveMergedFields(a, b, {})).toMatchObject({
      values: { email: "a@example.test", first_name: "Ada", phone: "2025550143" },
      fromB: ["phone"],
    });
    expect(resolveMergedFields(a, b, { phone: "a", first_name: "b" })).toMatchObject({
      values: { first_name: "Augusta", phone: null },
      fromB: ["first_name"],
    });
  });

  test("2.4 birth month and day travel together, so the merged birthday is always a pair", () => {
    const a = person({ birth_month: 12, birth_day: 10 });
    const b = person({ birth_month: 1, birth_day: 2 });
    expect(resolveMergedFields(a, b, { birthday: "b" }).values).toMatchObject({
      birth_month: 1,
      birth_day: 2,
    });
  });
});

describe("merge consent (strictest)", () => {
  const at = new Date("2026-01-01T00:00:00Z");
  test("8.3: a withdrawal on either side wins over an opt-in on the other; the opt-in proof is kept", () => {
    const a = person({ is_subscribed: true, opt_in_timestamp: at, opt_in_source: "form-1" });
    const b = person({ unsubscribed_at: at });
    expect(mergeConsent(a, b, [])).toEqual({
      is_subscribed: false,
      unsubscribed_at: at,
      opt_in_timestamp: at,
      opt_in_source: "form-1",
      opt_in_ip: null,
    });
    expect(mergeConsent(a, person({}), ["unsubscribe"]).is_subscribed).toBe(false);
  });

  test("an opt-in on one side and no decision on the other keeps the opt-in and its proof", () => {
    const b = person({ is_subscribed: true, opt_in_timestamp: at, opt_in_source: "CSV Import" });
    expect(mergeConsent(person({}), b, [])).toMatchObject({
      is_subscribed: true,
      unsubscribed_at: null,
      opt_in_source: "CSV Import",
    });
  });
});
