import { z } from "zod";
import { parseAllowedDomains } from "./allowed-domains";
import { LOCALES } from "@/lib/i18n/locales";

/**
 * What the dashboard editor writes to a form (spec 2.1): name, allowed domains (wildcard
 * syntax checked), require_verification, the captcha flag, an http(s) success URL and the form's
 * language (a shipped one, or empty: chosen per submission; docs/decisions.md, "Recipient languages").
 * Checkboxes arrive as 'on' or absent.
 */
export const formSettingsSchema = z
  .object({
    name: z.string().trim().min(1, "Name the form.").max(200, "Keep the name under 200 characters."),
    allowed_domains: z.string().max(10_000, "The domain list is too long.").default(""),
    require_verification: z.preprocess((v) => v === "on" || v === true, z.boolean()),
    captcha_required: z.preprocess((v) => v === "on" || v === true, z.boolean()),
    success_redirect_url: z
      .string()
      .trim()
      .max(2000, "Keep the URL under 2000 characters.")
      .default("")
      .refine((v) => v === "" || isHttpUrl(v), "Enter a full http:// or https:// address."),
    locale: z.enum(["", ...LOCALES], { error: "Choose one of the languages offered." }).default(""),
  })
  .transform((input, ctx) => {
    const domains = parseAllowedDomains(input.allowed_domains);
    if ("error" in domains) {
      ctx.addIssue({ code: "custom", path: ["allowed_domains"], message: domains.error.message });
      return z.NEVER;
    }
    return {
      name: input.name,
      allowed_domains: domains.data,
      require_verification: input.require_verification,
      captcha_required: input.captcha_required,
      success_redirect_url: input.success_redirect_url || null,
      locale: input.locale || null,
    };
  });

export type FormSettings = z.output<typeof formSettingsSchema>;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "http:" || url.protocol === "https:") && Boolean(url.hostname);
  } catch {
    return false;
  }
}
