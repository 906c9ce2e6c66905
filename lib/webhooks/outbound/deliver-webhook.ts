import { Webhook } from "standardwebhooks";
import { Agent, request } from "undici";
import { literalAddressAllowed, safeLookup, UnsafeDestinationError } from "./destination";

export const DELIVERY_TIMEOUT_MS = 10_000;
/** Of a receiver's answer we keep this much, and read no more. */
export const RESPONSE_EXCERPT_BYTES = 2_048;

const agent = new Agent({
  connect: { lookup: safeLookup, timeout: DELIVERY_TIMEOUT_MS },
  headersTimeout: DELIVERY_TIMEOUT_MS,
  bodyTimeout: DELIVERY_TIMEOUT_MS,
});

export interface WebhookMessage {
  /** the webhook-id: the same for every attempt of one delivery, so receivers can deduplicate */
  id: string;
  /** the event's JSON body, exactly as signed */
  body: string;
}

export interface DeliveryAttempt {
  ok: boolean;
  /** the receiver's HTTP status; null when no answer came */
  status: number | null;
  durationMs: number;
  /** the first RESPONSE_EXCERPT_BYTES of the answer, or why there was none */
  excerpt: string;
  /** the destination was refused (an address that is not public): retrying will not help */
  refused: boolean;
}

/**
 * One signed POST (Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature),
 * through a connection whose DNS answer was checked (destination.ts), with a timeout, no
 * redirects, and at most RESPONSE_EXCERPT_BYTES of the answer read. A 2xx is success.
 */
export async function deliverWebhook(
  url: string,
  secret: string,
  message: WebhookMessage,
  now: Date = new Date(),
): Promise<DeliveryAttempt> {
  const signature = new Webhook(secret).sign(message.id, now, message.body);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    if (!literalAddressAllowed(url)) throw new UnsafeDestinationError();
    const response = await request(url, {
      method: "POST",
      dispatcher: agent,
      headers: {
        "content-type": "application/json",
        "user-agent": "crm-webhooks/1",
        "webhook-id": message.id,
        "webhook-timestamp": String(Math.floor(now.getTime() / 1000)),
        "webhook-signature": signature,
      },
      body: message.body,
      signal: AbortSignal.timeout(DELIVERY_TIMEOUT_MS),
    });
    const excerpt = await readExcerpt(response.body);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return { ok, status: response.statusCode, durationMs: elapsed(), excerpt, refused: false };
  } catch (error) {
    const refused = hasCause(error, UnsafeDestinationError);
    const reason = refused ? new UnsafeDestinationError().message : describe(error);
    return { ok: false, status: null, durationMs: elapsed(), excerpt: reason, refused };
  }
}

async function readExcerpt(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= RESPONSE_EXCERPT_BYTES) break; // leaving the loop destroys the rest of the body
  }
  return Buffer.concat(chunks).subarray(0, RESPONSE_EXCERPT_BYTES).toString("utf8");
}

function hasCause(error: unknown, type: new (...args: never[]) => Error): boolean {
  for (let e = error; e instanceof Error; e = (e as Error & { cause?: unknown }).cause)
    if (e instanceof type) return true;
  return false;
}

function describe(error: unknown): string {
  const e = error as Error & { cause?: Error & { code?: string }; code?: string };
  if (e?.name === "TimeoutError" || e?.code === "UND_ERR_HEADERS_TIMEOUT")
    return "No answer within 10 seconds.";
  const code = e?.cause?.code ?? e?.code;
  return code ? `Connection failed (${code}).` : "Connection failed.";
}
