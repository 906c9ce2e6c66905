import { randomBytes } from "node:crypto";

/**
 * A Standard Webhooks signing secret: `whsec_` and 24 random bytes in base64, the form the
 * receivers' libraries (standardwebhooks, svix) take as it is.
 */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString("base64")}`;
}
