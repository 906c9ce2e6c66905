/**
 * A local captcha siteverify endpoint (Turnstile's and hCaptcha's protocol): a token that
 * starts with "pass" is valid once, any other is not. `requests` keeps what the service sent.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeCaptcha {
  url: string;
  env: Record<string, string>;
  requests: Record<string, string>[];
  stop(): Promise<void>;
}

export const FAKE_CAPTCHA_SECRET = "captcha-secret-for-tests";

export async function startFakeCaptcha(
  provider: "turnstile" | "hcaptcha" = "turnstile",
): Promise<FakeCaptcha> {
  const requests: Record<string, string>[] = [];
  const used = new Set<string>();
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push(form);
      const token = form.response ?? "";
      const success =
        req.url === "/siteverify" &&
        form.secret === FAKE_CAPTCHA_SECRET &&
        token.startsWith("pass") &&
        !used.has(token);
      if (success) used.add(token);
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(success ? { success } : { success, "error-codes": ["invalid-input-response"] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    env: {
      CAPTCHA_PROVIDER: provider,
      CAPTCHA_SITE_KEY: "site-key-for-tests",
      CAPTCHA_SECRET_KEY: FAKE_CAPTCHA_SECRET,
      CAPTCHA_VERIFY_URL: `${url}/siteverify`,
    },
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
