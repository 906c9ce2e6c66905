import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { FORM_BODY_LIMIT, WEBHOOK_BODY_LIMIT } from "@/lib/http/read-limited-body";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { createForm, randomIp } from "../helpers/forms";

vi.mock("next/server", async (original) => ({
  ...(await original<typeof import("next/server")>()),
  after: () => {},
}));

const { POST: form } = await import("@/app/api/forms/[formId]/route");
const { POST: rsvp } = await import("@/app/api/rsvp/[eventId]/route");
const { POST: ticketing } = await import("@/app/api/webhooks/ticketing/route");
const { POST: payproc } = await import("@/app/api/webhooks/payproc/route");
const { POST: email } = await import("@/app/api/webhooks/email/route");

const db = setupTestDatabase();
let formId = "";
beforeAll(async () => {
  const ws = await createWorkspace(db.sql);
  formId = (await createForm(db.sql, ws.id)).id;
});

let savedSecret: string | undefined;
beforeAll(() => {
  savedSecret = process.env.RESEND_WEBHOOK_SECRET;
  process.env.RESEND_WEBHOOK_SECRET = "whsec_dGVzdC1zZWNyZXQtdGVzdC1zZWNyZXQ=";
});
afterAll(() => {
  if (savedSecret === undefined) delete process.env.RESEND_WEBHOOK_SECRET;
  else process.env.RESEND_WEBHOOK_SECRET = savedSecret;
});

const TOTAL = 64 * 1024 * 1024;
const CHUNK = 16 * 1024;

/** A 64 MB body sent chunked (no Content-Length), counting the bytes the server pulls from it. */
function hugeBody() {
  const counter = { pulled: 0 };
  const chunk = new Uint8Array(CHUNK).fill(0x61);
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (counter.pulled >= TOTAL) return controller.close();
      counter.pulled += CHUNK;
      controller.enqueue(chunk);
    },
  });
  return { stream, counter };
}

function request(path: string, body: ReadableStream<Uint8Array>, headers: Record<string, string> = {}) {
  return new Request(`http://localhost:3000${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-forwarded-for": randomIp(), ...headers },
    body,
    duplex: "half",
  } as RequestInit);
}

const id = randomUUID();
const endpoints = [
  {
    name: "forms",
    cap: FORM_BODY_LIMIT,
    call: (r: Request) => form(r, { params: Promise.resolve({ formId }) }),
  },
  {
    name: "RSVP",
    cap: FORM_BODY_LIMIT,
    call: (r: Request) => rsvp(r, { params: Promise.resolve({ eventId: id }) }),
  },
  { name: "ticketing webhook", cap: WEBHOOK_BODY_LIMIT, call: ticketing },
  { name: "payproc webhook", cap: WEBHOOK_BODY_LIMIT, call: payproc },
  { name: "email webhook", cap: WEBHOOK_BODY_LIMIT, call: email },
];

describe("unbounded bodies: bodies are refused past their cap while reading", () => {
  test.each(endpoints)(
    "a 64 MB chunked body to the $name endpoint is refused after reading at most the cap",
    async ({ cap, call }) => {
      const { stream, counter } = hugeBody();
      const res = await call(request("/x", stream));
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        success: false,
        error: "The request body is too large.",
        code: "too_large",
      });
      // the cap, plus the chunk that crossed it and one the stream may have queued ahead
      expect(counter.pulled).toBeLessThanOrEqual(cap + 2 * CHUNK);
    },
  );

  test.each(endpoints)(
    "a lying Content-Length does not get a larger body into the $name endpoint",
    async ({ cap, call }) => {
      const { stream, counter } = hugeBody();
      const res = await call(request("/x", stream, { "content-length": "10" }));
      expect(res.status).toBe(413);
      expect(counter.pulled).toBeLessThanOrEqual(cap + 2 * CHUNK);
    },
  );

  test("a declared Content-Length past the cap is refused before reading anything", async () => {
    const { stream, counter } = hugeBody();
    const res = await rsvp(request("/x", stream, { "content-length": String(TOTAL) }), {
      params: Promise.resolve({ eventId: id }),
    });
    expect(res.status).toBe(413);
    expect(counter.pulled).toBeLessThanOrEqual(2 * CHUNK);
  });
});
