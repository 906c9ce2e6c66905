/**
 * A local stand-in for Resend's API: POST /emails and POST /emails/batch, recording what it is
 * sent. Like Resend, a request repeating an Idempotency-Key gets the first answer back and
 * sends nothing again. `failNext` makes the next request answer a 500.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeEmail {
  id: string;
  from: string;
  to: string | string[];
  subject: string;
  html?: string;
  text?: string;
  headers?: Record<string, string>;
}

export interface FakeResend {
  url: string;
  env: Record<string, string>;
  sent: FakeEmail[];
  requests: { path: string; idempotencyKey: string | null }[];
  failNext(count?: number): void;
  stop(): Promise<void>;
}

export const FAKE_RESEND_WEBHOOK_SECRET = `whsec_${Buffer.from("fake-resend-webhook-secret-32byt").toString("base64")}`;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
}

export async function startFakeResend(): Promise<FakeResend> {
  const sent: FakeEmail[] = [];
  const requests: FakeResend["requests"] = [];
  const answered = new Map<string, string>();
  let failures = 0;

  const server = createServer(async (req, res) => {
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    requests.push({ path: req.url ?? "", idempotencyKey: key });
    if (!String(req.headers.authorization ?? "").startsWith("Bearer "))
      return reply(401, { name: "missing_api_key", message: "Missing API key", statusCode: 401 });
    if (failures > 0) {
      failures -= 1;
      return reply(500, { name: "application_error", message: "Fake failure", statusCode: 500 });
    }
    if (req.method !== "POST" || (req.url !== "/emails" && req.url !== "/emails/batch"))
      return reply(404, { name: "not_found", message: "Not found", statusCode: 404 });
    const cacheKey = key && `${req.url} ${key}`;
    if (cacheKey && answered.has(cacheKey)) {
      res.writeHead(200, { "content-type": "application/json" });
      return res.end(answered.get(cacheKey));
    }
    const body = await readJson(req);
    const emails = (req.url === "/emails" ? [body] : body) as Omit<FakeEmail, "id">[];
    const ids = emails.map((email) => {
      const id = randomUUID();
      sent.push({ ...email, id });
      return { id };
    });
    const answer = JSON.stringify(req.url === "/emails" ? ids[0] : { data: ids });
    if (cacheKey) answered.set(cacheKey, answer);
    res.writeHead(200, { "content-type": "application/json" });
    res.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    // No RESEND_API_KEY here: the app keeps the dev outbox unless a test sets one.
    env: { RESEND_BASE_URL: url, RESEND_WEBHOOK_SECRET: FAKE_RESEND_WEBHOOK_SECRET },
    sent,
    requests,
    failNext(count = 1) {
      failures = count;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
