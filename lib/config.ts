/**
 * The service's base address ({base_url} in the spec): APP_URL, or the local server.
 * Links in emails, redirects and embed snippets are built from it, never from the
 * request's Host header (which a caller controls).
 */
export function appUrl(): string {
  const url = process.env.APP_URL ?? `http://localhost:${process.env.PORT ?? 3000}`;
  return url.replace(/\/+$/, "");
}

export function isHttps(): boolean {
  return appUrl().startsWith("https://");
}
