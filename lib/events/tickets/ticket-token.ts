import { compactVerify, CompactSign, decodeProtectedHeader, importJWK, type JWK } from "jose";
import { isUuid } from "@/lib/ids/uuid";

/**
 * Signed tickets (DESIGN section 9, "Events"; docs/decisions.md, "Signed tickets"): a compact JWS
 * (EdDSA over Ed25519, RFC 8037) whose header names the workspace's key (`kid`) and whose payload
 * names the workspace, event, registration and ticket type. Only the server holds the private
 * key; anyone with the public key (the scanner page, in the browser) verifies. Changing one
 * character of the payload breaks the signature, so a ticket cannot be moved to another event.
 *
 * This file imports jose and the uuid check only: the scanner page runs the same verification offline.
 */
export interface TicketClaims {
  /** workspace */
  w: string;
  /** event */
  e: string;
  /** registration */
  r: string;
  /** ticket type, when the registration names one */
  t: string | null;
}

/** A workspace's ticket key as scanners receive it: the key id and the raw public key, base64url. */
export interface TicketPublicKey {
  kid: string;
  x: string;
}

const TOKEN = /^[A-Za-z0-9_-]{10,200}\.[A-Za-z0-9_-]{10,1000}\.[A-Za-z0-9_-]{86}$/;
/** longer than any ticket: a pasted page of text is refused before it is parsed */
export const MAX_TICKET_LENGTH = 1500;

/** The public key as the JWK WebCrypto and jose import. */
export const publicJwk = (key: TicketPublicKey): JWK => ({
  kty: "OKP",
  crv: "Ed25519",
  x: key.x,
  kid: key.kid,
  alg: "EdDSA",
  use: "sig",
});

/** Signs a ticket with the workspace's private key (`d`, base64url) and its public half. */
export async function signTicket(
  key: TicketPublicKey & { d: string },
  claims: TicketClaims,
): Promise<string> {
  const privateKey = await importJWK({ kty: "OKP", crv: "Ed25519", x: key.x, d: key.d }, "EdDSA");
  const payload = new TextEncoder().encode(
    JSON.stringify({ w: claims.w, e: claims.e, r: claims.r, t: claims.t }),
  );
  return new CompactSign(payload).setProtectedHeader({ alg: "EdDSA", kid: key.kid }).sign(privateKey);
}

/**
 * The token as a ticket: its shape (three base64url parts, an Ed25519 signature's length) and the
 * key it names. Anything else (a truncated code, a URL, text) is null. Nothing here is trusted yet.
 */
export function ticketKeyId(token: unknown): string | null {
  if (typeof token !== "string" || token.length > MAX_TICKET_LENGTH || !TOKEN.test(token)) return null;
  try {
    const header = decodeProtectedHeader(token);
    return header.alg === "EdDSA" && isUuid(header.kid) ? header.kid.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** A ticket pasted as its link (`…/tickets/<token>`) or as the token itself: the token. */
export function ticketFromInput(input: string): string {
  const text = input.trim();
  const at = text.lastIndexOf("/tickets/");
  const token = at >= 0 ? text.slice(at + "/tickets/".length) : text;
  return token.split(/[?#\s]/)[0] ?? "";
}

/**
 * The claims of a ticket whose signature verifies under `key`, else null: forged, altered, signed
 * by another key, or not a ticket. The caller then compares the claims with where it is used.
 */
export async function verifyTicket(token: string, key: TicketPublicKey): Promise<TicketClaims | null> {
  if (ticketKeyId(token) !== key.kid.toLowerCase()) return null;
  try {
    const publicKey = await importJWK(publicJwk(key), "EdDSA");
    const { payload } = await compactVerify(token, publicKey, { algorithms: ["EdDSA"] });
    const claims: unknown = JSON.parse(new TextDecoder().decode(payload));
    if (typeof claims !== "object" || claims === null) return null;
    const { w, e, r, t } = claims as Record<string, unknown>;
    if (!isUuid(w) || !isUuid(e) || !isUuid(r) || !(t === null || t === undefined || isUuid(t))) return null;
    return { w: w.toLowerCase(), e: e.toLowerCase(), r: r.toLowerCase(), t: t ? t.toLowerCase() : null };
  } catch {
    return null;
  }
}
