import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** A new raw form key: 32 random bytes. Only its digest is stored; the raw key is shown once. */
export function generateFormKey(): string {
  return `fk_${randomBytes(32).toString("base64url")}`;
}

/** forms.api_key: the raw key's lowercase hex SHA-256 (docs/decisions.md, "What the spec leaves open"). */
export function hashFormKey(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex");
}

/** Spec 5.1 server mode: compares digests in constant time. */
export function formKeyMatches(storedDigest: string | null, raw: string): boolean {
  if (!storedDigest || !raw) return false;
  const expected = Buffer.from(storedDigest, "hex");
  const actual = createHash("sha256").update(raw, "utf8").digest();
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
