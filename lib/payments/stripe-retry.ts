import Stripe from "stripe";

export interface RetryOptions {
  /** total attempts, the first included */
  attempts: number;
  /** delay before the first retry; doubles each time, with jitter */
  baseDelayMs: number;
  maxDelayMs?: number;
  onRetry?: (info: { attempt: number; delayMs: number; reason: string }) => void;
}

/** A webhook or an endpoint cannot wait long; the CLI passes a patient policy. */
export const QUICK_RETRY: RetryOptions = { attempts: 2, baseDelayMs: 200 };

/** Rate limits (429), network failures and Stripe's own 5xx are worth another try; the rest are not. */
export function retryReason(error: unknown): string | null {
  if (error instanceof Stripe.errors.StripeRateLimitError) return "rate limited (429)";
  if (error instanceof Stripe.errors.StripeConnectionError) return "network error";
  if (error instanceof Stripe.errors.StripeError && (error.statusCode ?? 0) >= 500)
    return `server error (${error.statusCode})`;
  return null;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs a Stripe call, retrying rate limits and network errors with exponential backoff. */
export async function withStripeRetry<T>(
  fn: () => Promise<T>,
  options: RetryOptions = QUICK_RETRY,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      const reason = retryReason(error);
      if (!reason || attempt >= options.attempts) throw error;
      const exp = options.baseDelayMs * 2 ** (attempt - 1);
      const delayMs = Math.min(options.maxDelayMs ?? 30_000, Math.round(exp * (0.75 + Math.random() * 0.5)));
      options.onRetry?.({ attempt: attempt + 1, delayMs, reason });
      await sleep(delayMs);
    }
  }
}
