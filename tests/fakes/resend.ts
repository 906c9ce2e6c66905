/**
 * A local stand-in for Resend's API: POST /emails and POST /emails/batch, recording what it is
 * sent. Like Resend, a request repeating an Idempotency-Key gets the first answer back and
 * sends nothing again. `failNext` makes the next request answer a 500. With `requestsPerSecond`
 * it limits as Resend does (resend.com/docs/api-reference/rate-limit): every answer carries
 * `ratelimit-limit`, `ratelimit-remaining` and `ratelimit-reset`, and a request past the rate is
 * answered 429 `rate_limit_exceeded` with `retry-after`, sending nothing. The limit is a bucket of
 * `requestsPerSecond` requests refilled at that rate.
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
  /** requests answered 429 past the rate */
  limited: number;
  /** the next `count` requests answer `statusCode` (a 5xx as an outage, a 422 as Resend refusing for good) */
  failNext(count?: number, statusCode?: number): void;
  /** takes `requests` from the rate's bucket, as other senders of the same Resend team do */
  spend(requests: number): void;
  stop(): Promise<void>;
}

export const FAKE_RESEND_WEBHOOK_SECRET = `whsec_${Buffer.from("fake-resend-webhook-secret-32byt").toString("base64")}`;

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
}

export async function startFakeResend(options: { requestsPerSecond?: number } = {}): Promise<FakeResend> {
  const sent: FakeEmail[] = [];
  const requests: FakeResend["requests"] = [];
  const answered = new Map<string, string>();
  let failures = 0;
  let failureStatus = 500;
  const rate = options.requestsPerSecond;
  const bucket = { tokens: rate ?? 0, at: performance.now() };
  /** Takes a request from the bucket (false: past the rate), with the headers its answer carries. */
  const refill = (perSecond: number) => {
    const now = performance.now();
    bucket.tokens = Math.min(perSecond, bucket.tokens + ((now - bucket.at) / 1000) * perSecond);
    bucket.at = now;
  };
  const admit = (): { admitted: boolean; limitHeaders: Record<string, string> } => {
    if (rate === undefined) return { admitted: true, limitHeaders: {} };
    refill(rate);
    const admitted = bucket.tokens >= 1;
    if (admitted) bucket.tokens -= 1;
    const untilNext = Math.max(1, Math.ceil((1 - bucket.tokens) / rate));
    const limitHeaders = {
      "ratelimit-limit": String(rate),
      "ratelimit-remaining": String(Math.floor(bucket.tokens)),
      "ratelimit-reset": String(Math.ceil((rate - bucket.tokens) / rate)),
      ...(admitted ? {} : { "retry-after": String(untilNext) }),
    };
    return { admitted, limitHeaders };
  };
  const fake = { limited: 0 };

  const server = createServer(async (req, res) => {
    let limitHeaders: Record<string, string> = {};
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { "content-type": "application/json", ...limitHeaders });
      res.end(JSON.stringify(body));
    };
    const key = (req.headers["idempotency-key"] as string | undefined) ?? null;
    requests.push({ path: req.url ?? "", idempotencyKey: key });
    if (!String(req.headers.authorization ?? "").startsWith("Bearer "))
      return reply(401, { name: "missing_api_key", message: "Missing API key", statusCode: 401 });
    const admission = admit();
    limitHeaders = admission.limitHeaders;
    if (!admission.admitted) {
      fake.limited += 1;
      return reply(429, {
        name: "rate_limit_exceeded",
        message: `Too many requests. You can only make ${rate} requests per second. See rate limit response headers for more information. Or contact support to increase rate limit.`,
        statusCode: 429,
      });
    }
    if (failures > 0) {
      failures -= 1;
      return failureStatus >= 500
        ? reply(failureStatus, {
            name: "application_error",
            message: "Fake failure",
            statusCode: failureStatus,
          })
        : reply(failureStatus, {
            name: "validation_error",
            message: "Invalid `to` field. The email address needs to follow the `email@example.com` format.",
            statusCode: failureStatus,
          });
    }
    if (req.method !== "POST" || (req.url !== "/emails" && req.url !== "/emails/batch"))
      return reply(404, { name: "not_found", message: "Not found", statusCode: 404 });
    const cacheKey = key && `${req.url} ${key}`;
    if (cacheKey && answered.has(cacheKey)) {
      res.writeHead(200, { "content-type": "application/json", ...limitHeaders });
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
    res.writeHead(200, { "content-type": "application/json", ...limitHeaders });
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
    get limited() {
      return fake.limited;
    },
    failNext(count = 1, statusCode = 500) {
      failures = count;
      failureStatus = statusCode;
    },
    spend(requests) {
      if (rate !== undefined) refill(rate);
      bucket.tokens -= requests;
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
