import { describe, expect, test } from "vitest";
import { formKeyMatches, generateFormKey, hashFormKey } from "@/lib/forms/api-key";
import { parseBody } from "@/lib/http/parse-body";
import { honeypotTripped, isTruthy, submissionFields } from "@/lib/forms/submission-fields";
import { looksLikeToken, newVerificationToken, verificationDigest } from "@/lib/forms/verification-token";
import { safeRedirectUrl } from "@/lib/forms/redirect-url";

const enc = (s: string) => ({ bytes: new TextEncoder().encode(s) });

describe("4.2 step 4: parse the body", () => {
  test("4.2: URL-encoded bodies decode '+' and percent escapes; the last duplicate key wins", () => {
    const parsed = parseBody(
      "application/x-www-form-urlencoded",
      enc("email=a%40b.test&first_name=Ann+Marie&x=1&x=2"),
    );
    expect(parsed).toEqual({ data: { email: "a@b.test", first_name: "Ann Marie", x: "2" } });
  });

  test("failed submissions: other content types 415, oversize 413, malformed 400", () => {
    const refusal = (parsed: ReturnType<typeof parseBody>) =>
      "error" in parsed ? [parsed.error.code, parsed.error.status] : null;
    expect(refusal(parseBody("text/plain", enc("x")))).toEqual(["unsupported", 415]);
    expect(refusal(parseBody(null, enc("x")))).toEqual(["unsupported", 415]);
    expect(refusal(parseBody("application/json", { tooLarge: true }))).toEqual(["too_large", 413]);
    expect(refusal(parseBody("application/json", enc("[1]")))).toEqual(["invalid", 400]);
    expect(refusal(parseBody("application/json", { bytes: new Uint8Array([0x7b, 0xff, 0x7d]) }))).toEqual([
      "invalid",
      400,
    ]);
  });
});

describe("4.2 body keys", () => {
  test("body keys: the usual spellings of first name, last name and phone are accepted", () => {
    const r = submissionFields({ email: " A@B.test ", firstName: "Ann", surname: "Lee", tel: "555" });
    expect(r).toMatchObject({
      data: { email: "a@b.test", person: { first_name: "Ann", last_name: "Lee", phone: "555" } },
    });
    const full = submissionFields({ email: "a@b.test", name: "Mary Ann Lee" });
    expect(full).toMatchObject({
      data: { person: { first_name: "Mary", last_name: "Ann Lee" } },
    });
  });

  test("4.2: truthy is_subscribed values are true, 'true' and 'on' only", () => {
    for (const v of [true, "true", "on", "TRUE", " on "]) expect(isTruthy(v)).toBe(true);
    for (const v of [false, "false", "off", "", "1", "yes", 1, null, undefined])
      expect(isTruthy(v)).toBe(false);
  });

  test("4.2 step 5: the honeypot trips on any non-empty website_url", () => {
    expect(honeypotTripped({ website_url: "x" })).toBe(true);
    expect(honeypotTripped({ website_url: 0 })).toBe(true);
    expect(honeypotTripped({ website_url: "  " })).toBe(false);
    expect(honeypotTripped({ website_url: "" })).toBe(false);
    expect(honeypotTripped({})).toBe(false);
  });

  test("4.2.2 B.4: notes and message are joined into one note text", () => {
    const r = submissionFields({ email: "a@b.test", notes: "one", message: "two" });
    expect(r).toMatchObject({ data: { note: "one\n\ntwo" } });
  });
});

describe("keys, tokens and redirects", () => {
  test("5.1: a form key is checked against its SHA-256 digest", () => {
    const key = generateFormKey();
    const digest = hashFormKey(key);
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    expect(formKeyMatches(digest, key)).toBe(true);
    expect(formKeyMatches(digest, `${key}x`)).toBe(false);
    expect(formKeyMatches(null, key)).toBe(false);
    expect(formKeyMatches("abc", key)).toBe(false);
  });

  test("4.2.2 A: a verification token carries 256 random bits and only its digest is stored", () => {
    const a = newVerificationToken();
    const b = newVerificationToken();
    expect(a.token).not.toBe(b.token);
    expect(Buffer.from(a.token, "base64url")).toHaveLength(32);
    expect(a.digest).toBe(verificationDigest(a.token));
    expect(looksLikeToken(a.token)).toBe(true);
    expect(looksLikeToken("short")).toBe(false);
  });

  test("2.1: only absolute http(s) success URLs are ever redirected to", () => {
    expect(safeRedirectUrl("https://shop.test/thanks")).toBe("https://shop.test/thanks");
    for (const bad of ["javascript:alert(1)", "/relative", "//evil.test", "data:text/html,x", "", null])
      expect(safeRedirectUrl(bad)).toBeNull();
  });
});
