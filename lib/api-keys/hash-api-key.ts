import { createHash, randomBytes } from "node:crypto";

/** DESIGN 2: api_keys.key_hash is the lowercase hex SHA-256 digest of the raw key. */
export function hashApiKey(raw: string): string {
  return createHash("sha256").update(raw, "utf8").digest("hex");
}

/** A new raw key: 32 random bytes, recognisable by its prefix. */
export function newApiKey(): string {
  return `evk_${randomBytes(32).toString("base64url")}`;
}
