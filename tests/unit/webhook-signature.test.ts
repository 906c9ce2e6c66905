import { describe, expect, test } from "vitest";
import { signWebhook, verifyWebhook } from "@/lib/email/webhook-signature";

const secret = `whsec_${Buffer.from("0123456789abcdef0123456789abcdef").toString("base64")}`;
const body = JSON.stringify({ type: "email.bounced", data: { email_id: "e1" } });
const now = new Date("2026-11-21T12:00:00Z");
const ts = Math.floor(now.getTime() / 1000);

describe("Resend (Svix) webhook signature", () => {
  test("a correct v1 signature is accepted, also among several (secret rotation)", () => {
    const sig = signWebhook(secret, "msg_1", ts, body);
    expect(verifyWebhook(secret, { id: "msg_1", timestamp: String(ts), signature: sig }, body, now)).toEqual({
      ok: true,
    });
    expect(
      verifyWebhook(secret, { id: "msg_1", timestamp: String(ts), signature: `v1,AAAA ${sig}` }, body, now),
    ).toEqual({ ok: true });
  });

  test("a wrong signature, another body, another id or another secret is rejected", () => {
    const sig = signWebhook(secret, "msg_1", ts, body);
    const other = `whsec_${Buffer.from("another secret of 32 bytes long!").toString("base64")}`;
    const h = { id: "msg_1", timestamp: String(ts), signature: sig };
    expect(verifyWebhook(secret, h, body + " ", now)).toEqual({ ok: false, reason: "signature mismatch" });
    expect(verifyWebhook(secret, { ...h, id: "msg_2" }, body, now)).toMatchObject({ ok: false });
    expect(verifyWebhook(other, h, body, now)).toMatchObject({ ok: false });
    expect(verifyWebhook(secret, { ...h, signature: "v1,not-base64!" }, body, now)).toMatchObject({
      ok: false,
    });
    expect(verifyWebhook(secret, { ...h, signature: sig.replace("v1,", "v2,") }, body, now)).toMatchObject({
      ok: false,
    });
  });

  test("a timestamp more than 5 minutes old (or ahead) is rejected as stale, even when correctly signed", () => {
    for (const offset of [-301, 301]) {
      const t = ts + offset;
      const sig = signWebhook(secret, "msg_1", t, body);
      expect(verifyWebhook(secret, { id: "msg_1", timestamp: String(t), signature: sig }, body, now)).toEqual(
        {
          ok: false,
          reason: "stale timestamp",
        },
      );
    }
    const t = ts - 299;
    expect(
      verifyWebhook(
        secret,
        { id: "msg_1", timestamp: String(t), signature: signWebhook(secret, "msg_1", t, body) },
        body,
        now,
      ),
    ).toEqual({ ok: true });
  });

  test("missing headers or a malformed timestamp are rejected", () => {
    expect(
      verifyWebhook(secret, { id: null, timestamp: String(ts), signature: "v1,x" }, body, now),
    ).toMatchObject({ ok: false });
    expect(verifyWebhook(secret, { id: "m", timestamp: "12e3", signature: "v1,x" }, body, now)).toEqual({
      ok: false,
      reason: "malformed timestamp",
    });
  });
});
