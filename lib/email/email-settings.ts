import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";

export interface EmailSettings {
  tracking_url: string | null;
  subscribe_footer_enabled: boolean;
  subscribe_footer_message: string;
  subscribe_footer_link_text: string;
  /** opens and clicks are recorded only when on (off by default; docs/decisions.md, "Email engagement") */
  email_tracking_enabled: boolean;
  /** where replies to the workspace's mail go (docs/decisions.md, "Mail leaves in the workspace's name") */
  email_reply_to: string | null;
}

const trackingUrl = z
  .string()
  .trim()
  .max(300, "Keep the tracking URL under 300 characters.")
  .refine((value) => {
    if (value === "") return true;
    try {
      const url = new URL(value);
      return url.protocol === "https:" && !url.username && !url.password && !url.search && !url.hash;
    } catch {
      return false;
    }
  }, "Enter an https:// address without query or fragment, such as https://links.example.com.")
  .transform((value) => (value === "" ? null : value.replace(/\/+$/, "")));

/**
 * Spec 4.8 footer settings, the {tracking_url} of 4.7 and engagement tracking, as the settings
 * form sends them.
 */
export const emailSettingsSchema = z.object({
  subscribeFooterEnabled: z.preprocess((v) => v === "on" || v === true, z.boolean()),
  subscribeFooterMessage: z
    .string()
    .trim()
    .min(1, "Write the footer message.")
    .max(500, "Keep the footer message under 500 characters."),
  subscribeFooterLinkText: z
    .string()
    .trim()
    .min(1, "Write the link text.")
    .max(100, "Keep the link text under 100 characters."),
  trackingUrl,
  emailTrackingEnabled: z.preprocess((v) => v === "on" || v === true, z.boolean()),
  replyTo: z
    .string()
    .trim()
    .max(254, "Keep the reply-to address under 254 characters.")
    .refine(
      (v) => v === "" || z.email().safeParse(v).success,
      "Enter an email address, such as hello@example.org, or leave it empty.",
    )
    .transform((v) => (v === "" ? null : v.toLowerCase()))
    .optional(),
});

export async function getEmailSettings(db: Db, workspaceId: string): Promise<EmailSettings | null> {
  const [row] = await db<EmailSettings[]>`
    select tracking_url, subscribe_footer_enabled, subscribe_footer_message, subscribe_footer_link_text,
           email_tracking_enabled, email_reply_to
    from public.workspaces where id = ${workspaceId}`;
  return row ?? null;
}

/** Saves the settings; RLS lets only owners and admins update their workspace. */
export async function updateEmailSettings(
  db: Db,
  workspaceId: string,
  input: z.output<typeof emailSettingsSchema>,
): Promise<Result<EmailSettings>> {
  const [row] = await db<EmailSettings[]>`
    update public.workspaces set
      subscribe_footer_enabled = ${input.subscribeFooterEnabled},
      subscribe_footer_message = ${input.subscribeFooterMessage},
      subscribe_footer_link_text = ${input.subscribeFooterLinkText},
      tracking_url = ${input.trackingUrl},
      email_tracking_enabled = ${input.emailTrackingEnabled},
      -- the form always sends it (empty clears it); a caller that leaves it out keeps it
      email_reply_to = case when ${input.replyTo === undefined} then email_reply_to else ${input.replyTo ?? null} end
    where id = ${workspaceId}
    returning tracking_url, subscribe_footer_enabled, subscribe_footer_message, subscribe_footer_link_text,
              email_tracking_enabled, email_reply_to`;
  return row ? { data: row } : refused("forbidden", "Only owners and admins can change the email settings.");
}
