import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { authSecret } from "@/lib/auth/secret";

/**
 * Secrets the app must read back (outbound webhook signing secrets) are stored encrypted:
 * AES-256-GCM under DATA_ENCRYPTION_KEY (32 bytes, base64 or hex), or, when that is unset, a
 * key derived from AUTH_SECRET with HKDF-SHA256, so the embedded default needs no setting.
 * A database dump alone does not reveal them. Format: `v1.<iv>.<tag>.<ciphertext>`, base64url.
 */
function key(): Buffer {
  const configured = process.env.DATA_ENCRYPTION_KEY;
  if (configured) {
    const raw = /^[0-9a-f]{64}$/i.test(configured)
      ? Buffer.from(configured, "hex")
      : Buffer.from(configured, "base64");
    if (raw.length !== 32) throw new Error("DATA_ENCRYPTION_KEY must be 32 bytes, in hex or base64");
    return raw;
  }
  return Buffer.from(hkdfSync("sha256", authSecret(), Buffer.alloc(0), "crm:secret-box:v1", 32));
}

export function sealSecret(plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), iv);
  const sealed = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return ["v1", iv, cipher.getAuthTag(), sealed]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

export function openSecret(box: string): string {
  const [version, iv, tag, sealed] = box.split(".");
  if (version !== "v1" || !iv || !tag || !sealed) throw new Error("not a sealed secret");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString(
    "utf8",
  );
}
