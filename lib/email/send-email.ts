import { Resend } from "resend";
import type { Db } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { escapeHtml } from "@/lib/html/escape";
import { blockedFromMarketingOnly, ineligibilityReason, type EmailKind } from "@/lib/consent/eligibility";
import type { SuppressionReason } from "@/lib/consent/email-status";

export interface SendEmailInput {
  workspaceId: string;
  /** null for an address that is not (yet) a contact: then no contact rule applies */
  contactId: string | null;
  to: string;
  kind: EmailKind;
  subject: string;
  html: string;
  text?: string;
  broadcastId?: string;
}

export interface SendEmailResult {
  id: string;
  status: "sent" | "outbox" | "skipped" | "failed";
  skipReason?: string;
}

interface Recipient {
  is_subscribed: boolean;
  unsubscribed_at: Date | null;
  suppressions: SuppressionReason[];
  tracking_url: string | null;
  subscribe_footer_enabled: boolean;
  subscribe_footer_message: string;
  subscribe_footer_link_text: string;
}

async function loadRecipient(
  db: Db,
  workspaceId: string,
  contactId: string | null,
): Promise<Recipient | null> {
  const [row] = await db<Recipient[]>`
    select c.is_subscribed, c.unsubscribed_at,
           coalesce((select array_agg(s.reason) from public.contact_suppressions s where s.contact_id = c.id), '{}') as suppressions,
           w.tracking_url, w.subscribe_footer_enabled, w.subscribe_footer_message, w.subscribe_footer_link_text
    from public.workspaces w
    left join public.contacts c on c.id = ${contactId} and c.workspace_id = w.id
    where w.id = ${workspaceId}`;
  return row ?? null;
}

/** Spec 4.7: marketing email carries {tracking_url}/unsubscribe/{contact_id} (platform URL as fallback). */
export function unsubscribeUrl(trackingUrl: string | null, contactId: string): string {
  return `${(trackingUrl || appUrl()).replace(/\/+$/, "")}/unsubscribe/${contactId}`;
}

/** Builds what is actually sent: unsubscribe link and headers (marketing) or the subscribe footer (4.8). */
function render(input: SendEmailInput, r: Recipient | null) {
  let { html, text } = input;
  const headers: Record<string, string> = {};
  if (input.kind === "marketing" && input.contactId && r) {
    const url = unsubscribeUrl(r.tracking_url, input.contactId);
    const hadTag = html.includes("{{unsubscribe_url}}");
    html = html.replaceAll("{{unsubscribe_url}}", escapeHtml(url));
    text = text?.replaceAll("{{unsubscribe_url}}", url);
    if (!hadTag)
      html += `<p style="font-size:12px;color:#666"><a href="${escapeHtml(url)}">Unsubscribe</a></p>`;
    if (text !== undefined && !text.includes(url)) text += `\n\nUnsubscribe: ${url}`;
    headers["List-Unsubscribe"] = `<${url}>`;
    headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click";
  } else if (
    input.kind === "transactional" &&
    input.contactId &&
    r?.subscribe_footer_enabled &&
    blockedFromMarketingOnly(r)
  ) {
    const url = `${appUrl()}/api/subscribe/${input.contactId}`;
    html += `<p style="font-size:12px;color:#666">${escapeHtml(r.subscribe_footer_message)} <a href="${escapeHtml(url)}">${escapeHtml(r.subscribe_footer_link_text)}</a></p>`;
    if (text !== undefined)
      text += `\n\n${r.subscribe_footer_message} ${r.subscribe_footer_link_text}: ${url}`;
  }
  return { html, text, headers };
}

let resend: Resend | undefined;

/**
 * The one way email leaves the service. Checks eligibility (spec 8.3), renders the
 * unsubscribe link or subscribe footer, then sends through Resend when RESEND_API_KEY is
 * set and otherwise keeps the email in the dev outbox. Every email, sent or skipped, is an
 * email_sends row. Delivery happens inside the caller's transaction: a failed delivery is
 * recorded as 'failed', never thrown.
 */
export async function sendEmail(db: Db, input: SendEmailInput): Promise<SendEmailResult> {
  const recipient = await loadRecipient(db, input.workspaceId, input.contactId);
  const skipReason = input.contactId && recipient ? ineligibilityReason(input.kind, recipient) : null;
  const { html, text, headers } = render(input, recipient);
  const base = {
    workspace_id: input.workspaceId,
    contact_id: input.contactId,
    broadcast_id: input.broadcastId ?? null,
    to_email: input.to,
    kind: input.kind,
    subject: input.subject,
    html,
    text_body: text ?? null,
    headers: db.json(headers),
  };
  if (skipReason) {
    const [row] =
      await db`insert into public.email_sends ${db({ ...base, status: "skipped", skip_reason: skipReason })} returning id`;
    return { id: row.id, status: "skipped", skipReason };
  }
  if (!process.env.RESEND_API_KEY) {
    const [row] = await db`
      insert into public.email_sends ${db({ ...base, status: "outbox", provider: "outbox", sent_at: new Date() })} returning id`;
    return { id: row.id, status: "outbox" };
  }
  resend ??= new Resend(process.env.RESEND_API_KEY);
  const { data, error } = await resend.emails.send({
    from: process.env.EMAIL_FROM ?? "CRM <no-reply@example.com>",
    to: input.to,
    subject: input.subject,
    html,
    text,
    headers,
  });
  const [row] = await db`
    insert into public.email_sends ${db({
      ...base,
      status: error ? "failed" : "sent",
      skip_reason: error ? `${error.name}: ${error.message}` : null,
      provider: "resend",
      provider_message_id: data?.id ?? null,
      sent_at: error ? null : new Date(),
    })} returning id`;
  return { id: row.id, status: error ? "failed" : "sent" };
}
