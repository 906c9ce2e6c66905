/**
 * A local stand-in for Resend's API: POST /emails and POST /emails/batch, recording what it is
 * sent. Like Resend, a request repeating an Idempotency-Key gets the first answer back and
 * sends nothing again. `failNext` makes the next request answer a 500. With `requestsPerSecond`
 * it limits as Resend does (resend.com/docs/api-reference/rate-limit): every answer carries
 * `ratelimit-limit`, `ratelimit-remaining` and `ratelimit-reset`, and a request past the rate is
 * answered 429 `rate_limit_exceeded` with `retry-after`, sending nothing. The limit is a bucket of
 * `requestsPerSecond` requests refilled at that rate.
 *
 * The Domains API too (resend.com/docs/api-reference/domains), with Resend's shapes: POST /domains
 * answers the domain with the DNS records to create (SPF's MX and TXT on `send`, DKIM's TXT on
 * `resend._domainkey`), GET /domains/{id}, POST /domains/{id}/verify (moves a not yet verified domain
 * to 'pending'), DELETE /domains/{id}. `setDomainStatus` plays the DNS side: the domain and its
 * records take the status, as Resend reports them once it has looked.
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

/** A domain as Resend's Domains API answers it. */
export interface FakeDomain {
  id: string;
  name: string;
  status: string;
  region: string;
  created_at: string;
  records: {
    record: string;
    name: string;
    type: string;
    ttl: string;
    status: string;
    value: string;
    priority?: number;
  }[];
}

export interface FakeResend {
  url: string;
  /** the domains added, by id */
  domains: Map<string, FakeDomain>;
  /** plays the DNS side: the named domain (and its records) take `status`, as Resend reports once it looked */
  setDomainStatus(name: string, status?: string): void;
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
  const domains = new Map<string, FakeDomain>();

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
    if (req.url?.startsWith("/domains")) return answerDomains(req, domains, reply);
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
    domains,
    setDomainStatus(name, status = "verified") {
      for (const domain of domains.values())
        if (domain.name === name) {
          domain.status = status;
          for (const record of domain.records) record.status = status;
        }
    },
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

/** Resend's Domains API on the fake's `domains` (the shapes of resend.com/docs/api-reference/domains). */
async function answerDomains(
  req: IncomingMessage,
  domains: Map<string, FakeDomain>,
  reply: (status: number, body: unknown) => void,
): Promise<void> {
  const [, , id, action] = (req.url ?? "").split("?")[0].split("/");
  const notFound = () => reply(404, { name: "not_found", message: "Domain not found", statusCode: 404 });
  if (req.method === "POST" && !id) {
    const body = (await readJson(req)) as { name?: string; region?: string } | null;
    const name = body?.name?.toLowerCase() ?? "";
    if (!/^([a-z0-9-]+\.)+[a-z]{2,}$/.test(name))
      return reply(422, { name: "validation_error", message: "Invalid domain name.", statusCode: 422 });
    const region = body?.region ?? "us-east-1";
    const domain: FakeDomain = {
      id: randomUUID(),
      name,
      status: "not_started",
      region,
      created_at: new Date().toISOString(),
      records: [
        {
          record: "SPF",
          name: "send",
          type: "MX",
          ttl: "Auto",
          status: "not_started",
          value: `feedback-smtp.${region}.amazonses.com`,
          priority: 10,
        },
        {
          record: "SPF",
          name: "send",
          type: "TXT",
          ttl: "Auto",
          status: "not_started",
          value: '"v=spf1 include:amazonses.com ~all"',
        },
        {
          record: "DKIM",
          name: "resend._domainkey",
          type: "TXT",
          ttl: "Auto",
          status: "not_started",
          value: `p=MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQ${randomUUID().replaceAll("-", "")}IDAQAB`,
        },
      ],
    };
    domains.set(domain.id, domain);
    const { id: domainId, ...rest } = domain;
    return reply(200, { id: domainId, ...rest });
  }
  const domain = id ? domains.get(id) : undefined;
  if (!domain) return notFound();
  if (req.method === "GET" && !action) return reply(200, { object: "domain", ...domain });
  if (req.method === "POST" && action === "verify") {
    if (domain.status !== "verified") {
      domain.status = "pending";
      for (const record of domain.records) if (record.status !== "verified") record.status = "pending";
    }
    return reply(200, { object: "domain", id: domain.id });
  }
  if (req.method === "DELETE" && !action) {
    domains.delete(domain.id);
    return reply(200, { object: "domain", id: domain.id, deleted: true });
  }
  return reply(404, { name: "not_found", message: "Not found", statusCode: 404 });
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
