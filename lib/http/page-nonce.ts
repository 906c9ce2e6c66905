import { headers } from "next/headers";

/**
 * This page's CSP nonce (proxy.ts puts the policy on the request): an email preview's own
 * `<style>` elements carry it, so the srcdoc frame (which inherits the page's policy) applies
 * its responsive styles. Null where no nonce was set (development, route handlers).
 */
export async function pageNonce(): Promise<string | null> {
  const policy = (await headers()).get("content-security-policy") ?? "";
  return /'nonce-([A-Za-z0-9+/=_-]+)'/.exec(policy)?.[1] ?? null;
}
