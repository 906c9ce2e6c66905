import { captchaConfig } from "../captcha";
import { log } from "@/lib/observability/log";

/**
 * Asks the provider whether a widget token is valid (Turnstile and hCaptcha share the
 * siteverify protocol: a form POST of secret, response and remoteip; `{ success }` back).
 * Any failure to get a clear yes (an error, a timeout, no provider) is a no.
 */
export async function verifyCaptcha(token: string, ip: string | null): Promise<boolean> {
  const config = captchaConfig();
  if (!config) return false;
  const body = new URLSearchParams({ secret: config.secret, response: token });
  if (ip) body.set("remoteip", ip);
  if (config.provider === "hcaptcha") body.set("sitekey", config.siteKey);
  try {
    const res = await fetch(config.verifyUrl, { method: "POST", body, signal: AbortSignal.timeout(10_000) });
    if (!res.ok) return false;
    const answer = (await res.json()) as { success?: unknown };
    return answer.success === true;
  } catch (error) {
    log.error({ err: error }, "captcha verification failed");
    return false;
  }
}
