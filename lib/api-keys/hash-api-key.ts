import { createHash, randomBytes } from "node:crypto";

/** api_keys.key_hash: the key's lowercase hex SHA-256 (docs/decisions.md, "What the spec leaves open"). */
export function hashApiKey(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex");
}

/** A new raw key: 32 random bytes, recognisable by its prefix. */
export function newApiKey(): string {
  return `evk_${randomBytes(32).toString("base64url")}`;
}
