/**
 * Captcha for forms with captcha_required (docs/decisions.md, "Captcha"): Cloudflare Turnstile or hCaptcha,
 * chosen by CAPTCHA_PROVIDER, with the site key shown in the embed and the secret used server-side.
 * CAPTCHA_VERIFY_URL replaces the provider's siteverify address (the test fake).
 */
export type CaptchaProvider = "turnstile" | "hcaptcha";

export interface CaptchaConfig {
  provider: CaptchaProvider;
  siteKey: string;
  secret: string;
  verifyUrl: string;
}

const VERIFY_URL: Record<CaptchaProvider, string> = {
  turnstile: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
  hcaptcha: "https://api.hcaptcha.com/siteverify",
};

/** The widget's script, and the field its token arrives in. */
export const WIDGET: Record<CaptchaProvider, { script: string; className: string; field: string }> = {
  turnstile: {
    script: "https://challenges.cloudflare.com/turnstile/v0/api.js",
    className: "cf-turnstile",
    field: "cf-turnstile-response",
  },
  hcaptcha: {
    script: "https://js.hcaptcha.com/1/api.js",
    className: "h-captcha",
    field: "h-captcha-response",
  },
};

/** The configured provider, or null when CAPTCHA_PROVIDER, CAPTCHA_SITE_KEY or CAPTCHA_SECRET_KEY is missing. */
export function captchaConfig(): CaptchaConfig | null {
  const provider = process.env.CAPTCHA_PROVIDER?.trim().toLowerCase();
  const siteKey = process.env.CAPTCHA_SITE_KEY?.trim();
  const secret = process.env.CAPTCHA_SECRET_KEY?.trim();
  if ((provider !== "turnstile" && provider !== "hcaptcha") || !siteKey || !secret) return null;
  return {
    provider,
    siteKey,
    secret,
    verifyUrl: process.env.CAPTCHA_VERIFY_URL?.trim() || VERIFY_URL[provider],
  };
}

/** The token a widget put in the submitted body (either provider's field, or captcha_token from an API caller). */
export function captchaToken(body: Record<string, unknown>): string | null {
  for (const key of [WIDGET.turnstile.field, WIDGET.hcaptcha.field, "captcha_token"]) {
    const value = body[key];
    if (typeof value === "string" && value.trim() && value.length <= 4096) return value.trim();
  }
  return null;
}

/** The body without the widget's token fields (a token is not worth storing with the submission). */
export function withoutCaptchaFields<T extends Record<string, unknown>>(body: T): T {
  const copy = { ...body };
  for (const key of [WIDGET.turnstile.field, WIDGET.hcaptcha.field, "g-recaptcha-response", "captcha_token"])
    delete copy[key];
  return copy;
}
