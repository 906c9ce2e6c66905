import { Resend } from "resend";

import { paced, type ProviderAnswer } from "./flows/pace-provider";

let cached: { key: string; base: string | undefined; client: Resend } | undefined;

/**
 * The Resend SDK client when RESEND_API_KEY is set, else null (the dev outbox). RESEND_BASE_URL
 * points the SDK at another server (the test fake). Rebuilt when either changes.
 */
export function resendClient(): Resend | null {
  const key = process.env.RESEND_API_KEY;
  if (!key) return null;
  const base = process.env.RESEND_BASE_URL;
  if (cached?.key !== key || cached.base !== base)
    cached = { key, base, client: new Resend(key, base ? { baseUrl: base } : undefined) };
  return cached.client;
}

export function emailFrom(): string {
  return process.env.EMAIL_FROM ?? "CRM <no-reply@example.com>";
}

/**
 * `request` made through the key's pacer (lib/email/flows/pace-provider.ts): at the team's rate, a 429
 * waited out and made again, a 5xx tried again a few times; null without RESEND_API_KEY (the dev
 * outbox). `request` sends the same idempotency key every time.
 */
export async function sendThroughResend<T>(
  request: (resend: Resend) => Promise<ProviderAnswer<T>>,
  signal?: AbortSignal,
): Promise<ProviderAnswer<T> | null> {
  const resend = resendClient();
  if (!resend) return null;
  return paced(cached!.key, () => request(resend), signal);
}
