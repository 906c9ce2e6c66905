import Stripe from "stripe";

let cached: { key: string; client: Stripe } | undefined;

/**
 * The Stripe client (the spec's 'payproc'). STRIPE_API_BASE points it at another address
 * (the test fake); calls on a connected account pass `stripeAccount` per request
 * (docs/decisions.md, "Stripe Connect": Stripe's own Stripe-Account header stands for the spec's
 * 'Payproc-Account'). Retries are ours (stripe-retry.ts), so the SDK's own are off.
 */
export function stripeClient(): Stripe {
  const secret = process.env.STRIPE_SECRET_KEY;
  if (!secret) throw new Error("STRIPE_SECRET_KEY is not set");
  const base = process.env.STRIPE_API_BASE ?? "";
  const key = `${secret}|${base}`;
  if (cached?.key === key) return cached.client;
  const config: Stripe.StripeConfig = { maxNetworkRetries: 0, timeout: 20_000, telemetry: false };
  if (base) {
    const url = new URL(base);
    config.protocol = url.protocol === "http:" ? "http" : "https";
    config.host = url.hostname;
    config.port = url.port || (url.protocol === "http:" ? "80" : "443");
  }
  cached = { key, client: new Stripe(secret, config) };
  return cached.client;
}

/** The signing secret of the payproc webhook endpoint. */
export function webhookSecret(): string {
  const secret = process.env.STRIPE_WEBHOOK_SECRET;
  if (!secret) throw new Error("STRIPE_WEBHOOK_SECRET is not set");
  return secret;
}

/** Request options scoping a call to the workspace's connected account, when it has one. */
export function onAccount(accountId: string | null | undefined): Stripe.RequestOptions {
  return accountId ? { stripeAccount: accountId } : {};
}
