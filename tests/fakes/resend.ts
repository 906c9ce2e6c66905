/**
 * A local stand-in for Resend's API: POST /emails and POST /emails/batch, recording what it is
 * sent. Like Resend, a request repeating an Idempotency-Key gets the first answer back and
 * sends nothing again. `failNext` makes the next request answer a 500.
 */
import { createHmac, randomUUID } from "node:crypto";
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

/** The event types Resend reports about an email, as its webhooks name them. */
export type ResendEventType =
  | "email.sent"
  | "email.delivered"
  | "email.delivery_delayed"
  | "email.opened"
  | "email.clicked"
  | "email.bounced"
  | "email.complained";

/**
 * A Resend webhook event for one email, shaped as Resend sends it (type, created_at, data with
 * email_id, from, to, subject, broadcast_id, tags; `click` for clicks, `bounce` for bounces).
 * `data` overrides or adds fields, such as a lying broadcast_id or tag.
 */
export function resendEvent(
  type: ResendEventType,
  emailId: string,
  opts: {
    at?: Date;
    click?: { link: string; ipAddress?: string; userAgent?: string; timestamp?: string };
    data?: Record<string, unknown>;
  } = {},
): { type: ResendEventType; created_at: string; data: Record<string, unknown> } {
  const at = (opts.at ?? new Date()).toISOString();
  return {
    type,
    created_at: at,
    data: {
      created_at: at,
      email_id: emailId,
      from: "Acme <news@example.test>",
      to: ["someone@example.test"],
      subject: "News",
      ...(type === "email.clicked"
        ? {
            click: {
              ipAddress: "203.0.113.9",
              userAgent:
                "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15",
              timestamp: at,
              ...opts.click,
            },
          }
        : {}),
      ...(type === "email.bounced"
        ? { bounce: { message: "Mailbox does not exist", subType: "General", type: "Permanent" } }
        : {}),
      ...opts.data,
    },
  };
}

/**
 * A webhook delivery of `event` to `url`, signed as Resend (Svix) signs: svix-id, svix-timestamp,
 * svix-signature = v1,<base64 HMAC-SHA256 of "id.timestamp.body"> with the whsec_ secret.
 */
export function resendWebhookRequest(
  url: string,
  event: unknown,
  opts: { id?: string; timestamp?: number; secret?: string } = {},
): Request {
  const body = JSON.stringify(event);
  const id = opts.id ?? `msg_${randomUUID().replaceAll("-", "")}`;
  const ts = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const secret = opts.secret ?? FAKE_RESEND_WEBHOOK_SECRET;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const mac = createHmac("sha256", key).update(`${id}.${ts}.${body}`).digest("base64");
  return new Request(url, {
    method: "POST",
    body,
    headers: {
      "content-type": "application/json",
      "svix-id": id,
      "svix-timestamp": String(ts),
      "svix-signature": `v1,${mac}`,
    },
  });
}
