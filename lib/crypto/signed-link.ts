import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";
import type postgres from "postgres";
import { authSecret } from "@/lib/auth/secret";
import type { Db } from "@/lib/db/doors";

/**
 * Signed recipient links (docs/decisions.md, "Signed recipient links"): what a link may do beyond
 * spec 4.6 and 4.7's plain behaviour (join a topic in the preference centre, clear a manual block)
 * needs an HMAC-SHA256 of (purpose, workspace, contact) under a key derived from AUTH_SECRET for
 * that purpose. A contact id alone, which members, API keys and webhook receivers all see, is not
 * enough. The signature is the first 128 bits, in hex.
 */
export type LinkPurpose = "subscribe" | "preferences";

export interface LinkSubject {
  workspaceId: string;
  contactId: string;
}

const SIGNATURE_LENGTH = 32;
const BLOCK = 64; // SHA-256's block size, for HMAC's pads

function purposeKey(purpose: LinkPurpose): Buffer {
  return Buffer.from(hkdfSync("sha256", authSecret(), Buffer.alloc(0), `crm:signed-link:${purpose}:v1`, 32));
}

const message = (purpose: LinkPurpose, s: LinkSubject) =>
  `${purpose}\n${s.workspaceId.toLowerCase()}\n${s.contactId.toLowerCase()}`;

export function signLink(purpose: LinkPurpose, subject: LinkSubject): string {
  return createHmac("sha256", purposeKey(purpose))
    .update(message(purpose, subject))
    .digest("hex")
    .slice(0, SIGNATURE_LENGTH);
}

/** Whether `signature` (untrusted: anything from a query or a form) signs this subject for this purpose. */
export function verifyLink(purpose: LinkPurpose, subject: LinkSubject, signature: unknown): boolean {
  if (
    typeof signature !== "string" ||
    !/^[0-9a-f]+$/.test(signature) ||
    signature.length !== SIGNATURE_LENGTH
  )
    return false;
  return timingSafeEqual(Buffer.from(signature), Buffer.from(signLink(purpose, subject)));
}

/**
 * signLink as SQL, for links rendered in the database (a broadcast's batch): HMAC spelled out
 * with the built-in sha256 (no pgcrypto on the embedded database), the pads bound as parameters:
 * never stored, though a server log that records statement parameters would hold them.
 */
type Fragment = postgres.PendingQuery<postgres.Row[]>;

export function signLinkSql(db: Db, purpose: LinkPurpose, workspaceId: Fragment, contactId: Fragment) {
  const key = Buffer.concat([purposeKey(purpose), Buffer.alloc(BLOCK - 32)]);
  const pad = (byte: number) => Buffer.from(key.map((b) => b ^ byte));
  return db`left(encode(sha256(${pad(0x5c)}::bytea || sha256(${pad(0x36)}::bytea
    || convert_to(${`${purpose}\n`}::text || lower(${workspaceId}::text) || E'\\n' || lower(${contactId}::text), 'UTF8'))), 'hex'), ${SIGNATURE_LENGTH})`;
}
