import { appUrl } from "@/lib/config";

/** The purpose the OAuth state is signed for (lib/auth/tokens signValue). */
export const STRIPE_CONNECT_PURPOSE = "stripe-connect-oauth";

/** Connecting needs the platform's secret key and its Connect client id (ca_…). */
export function stripeConnectConfigured(): boolean {
  return Boolean(process.env.STRIPE_SECRET_KEY && process.env.STRIPE_CONNECT_CLIENT_ID);
}

export function stripeConnectRedirectUri(): string {
  return `${appUrl()}/api/auth/payproc/callback`;
}

/**
 * Stripe Connect OAuth's authorize address (standard accounts, read_write). Built here rather
 * than with stripe.oauth.authorizeUrl, which always writes https: STRIPE_CONNECT_BASE (or the
 * test fake's STRIPE_API_BASE) may be a local http address.
 */
export function stripeConnectAuthorizeUrl(state: string): string {
  const base = (
    process.env.STRIPE_CONNECT_BASE ??
    process.env.STRIPE_API_BASE ??
    "https://connect.stripe.com"
  ).replace(/\/+$/, "");
  const url = new URL(`${base}/oauth/authorize`);
  url.search = new URLSearchParams({
    response_type: "code",
    client_id: process.env.STRIPE_CONNECT_CLIENT_ID ?? "",
    scope: "read_write",
    redirect_uri: stripeConnectRedirectUri(),
    state,
  }).toString();
  return url.toString();
}
