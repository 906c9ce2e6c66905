import { generateKeyPairSync } from "node:crypto";
import { describe, expect, test } from "vitest";
import {
  signTicket,
  ticketFromInput,
  ticketKeyId,
  verifyTicket,
  type TicketClaims,
} from "@/lib/events/tickets/ticket-token";

/**
 * Signed tickets (DESIGN section 9, "Events"; docs/decisions.md, "Signed tickets"): a ticket
 * verifies under its workspace's public key only, and no change to it (another event, another
 * registration, another key's signature) survives verification.
 */
function keyPair(kid: string) {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519");
  return {
    kid,
    x: publicKey.export({ format: "jwk" }).x!,
    d: privateKey.export({ format: "jwk" }).d!,
  };
}

const KID = "11111111-1111-4111-8111-111111111111";
const claims: TicketClaims = {
  w: "22222222-2222-4222-8222-222222222222",
  e: "33333333-3333-4333-8333-333333333333",
  r: "44444444-4444-4444-8444-444444444444",
  t: null,
};

const b64 = (s: string) => Buffer.from(s).toString("base64url");
const parts = (token: string) => token.split(".") as [string, string, string];

describe("a signed ticket", () => {
  test("verifies under its workspace's public key and names the workspace, event, registration and type", async () => {
    const key = keyPair(KID);
    const token = await signTicket(key, claims);
    expect(ticketKeyId(token)).toBe(KID);
    expect(await verifyTicket(token, { kid: key.kid, x: key.x })).toEqual(claims);
    const typed = await signTicket(key, { ...claims, t: "55555555-5555-4555-8555-555555555555" });
    expect((await verifyTicket(typed, key))?.t).toBe("55555555-5555-4555-8555-555555555555");
    // compact enough for a QR code a phone reads at arm's length
    expect(token.length).toBeLessThan(400);
  });

  test("moved to another event (payload rewritten, signature kept) is refused", async () => {
    const key = keyPair(KID);
    const [header, , signature] = parts(await signTicket(key, claims));
    const moved = b64(JSON.stringify({ ...claims, e: "66666666-6666-4666-8666-666666666666" }));
    expect(await verifyTicket(`${header}.${moved}.${signature}`, key)).toBeNull();
  });

  test("any single character changed in any part is refused", async () => {
    const key = keyPair(KID);
    const token = await signTicket(key, claims);
    for (let i = 0; i < token.length; i += 7) {
      if (token[i] === ".") continue;
      const flipped = token.slice(0, i) + (token[i] === "A" ? "B" : "A") + token.slice(i + 1);
      expect(await verifyTicket(flipped, key), `position ${i}`).toBeNull();
    }
  });

  test("signed by another workspace's key under this key's id (a forged kid) is refused", async () => {
    const ours = keyPair(KID);
    const theirs = keyPair(KID);
    const forged = await signTicket(theirs, claims);
    expect(await verifyTicket(forged, ours)).toBeNull();
  });

  test("another key's id, an unsigned token, alg none and text are refused before any key is used", async () => {
    const key = keyPair(KID);
    const other = keyPair("77777777-7777-4777-8777-777777777777");
    expect(await verifyTicket(await signTicket(other, claims), key)).toBeNull();
    const none = `${b64(JSON.stringify({ alg: "none", kid: KID }))}.${b64(JSON.stringify(claims))}.`;
    expect(ticketKeyId(none)).toBeNull();
    expect(await verifyTicket(none, key)).toBeNull();
    const hs = `${b64(JSON.stringify({ alg: "HS256", kid: KID }))}.${b64(JSON.stringify(claims))}.${"A".repeat(86)}`;
    expect(ticketKeyId(hs)).toBeNull();
    for (const text of ["", "hello", "a.b.c", "x".repeat(5000)]) expect(ticketKeyId(text)).toBeNull();
  });

  test("a payload that is not a ticket's, even correctly signed, is refused", async () => {
    const key = keyPair(KID);
    const bad = await signTicket(key, { ...claims, r: "not-a-uuid" });
    expect(await verifyTicket(bad, key)).toBeNull();
  });

  test("the scanner's manual entry takes the token or the whole ticket link", () => {
    expect(ticketFromInput("  abc.def.ghi \n")).toBe("abc.def.ghi");
    expect(ticketFromInput("https://crm.example/tickets/abc.def.ghi?x=1")).toBe("abc.def.ghi");
  });
});
