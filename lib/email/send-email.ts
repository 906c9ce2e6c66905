import type { Db } from "@/lib/db/doors";
import { ineligibilityReason, type EmailKind } from "@/lib/consent/eligibility";
import { renderEmail, type RenderRecipient } from "./render-email";
import { emailFrom, resendClient } from "./resend-client";

export { unsubscribeUrl } from "./render-email";

export interface SendEmailInput {
  /** null for an account email (sign-up, password reset): no workspace, no member can read it */
  workspaceId: string | null;
  /** null for an address that is not (yet) a contact: then no contact rule applies */
  contactId: string | null;
  to: string;
  kind: EmailKind;
  subject: string;
  html: string;
  text?: string;
  broadcastId?: string;
  /**
   * Secrets in the body (a link's token): replaced in the stored copy when a provider
   * delivers the email, so email_sends never holds a usable link. The dev outbox keeps
   * them, since there the stored copy is the delivery.
   */
  redact?: string[];
}

export interface SendEmailResult {
  id: string;
  status: "sent" | "outbox" | "skipped" | "failed";
  skipReason?: string;
}

interface Recipient extends RenderRecipient {
  contact_id: string | null;
}

async function loadRecipient(
  db: Db,
  workspaceId: string | null,
  contactId: string | null,
): Promise<Recipient | null> {
  if (workspaceId === null) return null;
  const [row] = await db<Recipient[]>`
    select c.id as contact_id, coalesce(c.is_subscribed, false) as is_subscribed, c.unsubscribed_at,
           coalesce((select array_agg(s.reason) from public.contact_suppressions s where s.contact_id = c.id), '{}') as suppressions,
           w.tracking_url, w.subscribe_footer_enabled, w.subscribe_footer_message, w.subscribe_footer_link_text
    from public.workspaces w
    left join public.contacts c on c.id = ${contactId} and c.workspace_id = w.id
    where w.id = ${workspaceId}`;
  return row ?? null;
}

/** Spec 8.3, for one send: the reason it is skipped, or null. */
function skipReasonFor(input: SendEmailInput, r: Recipient | null): string | null {
  if (input.workspaceId === null) return input.kind === "marketing" ? "not a contact" : null;
  if (!r) return "unknown workspace";
  if (input.contactId && !r.contact_id) return "contact not found";
  // marketing needs recorded consent, which only a contact can have
  if (!input.contactId) return input.kind === "marketing" ? "not a contact" : null;
  return ineligibilityReason(input.kind, r);
}

/**
 * The one way a single email leaves the service. Checks eligibility (spec 8.3), renders the
 * unsubscribe link or subscribe footer, then sends through Resend when RESEND_API_KEY is
 * set and otherwise keeps the email in the dev outbox. Every email, sent or skipped, is an
 * email_sends row. A failed delivery is recorded as 'failed', never thrown.
 */
export async function sendEmail(db: Db, input: SendEmailInput): Promise<SendEmailResult> {
  const recipient = await loadRecipient(db, input.workspaceId, input.contactId);
  const skipReason = skipReasonFor(input, recipient);
  const { html, text, headers } = renderEmail(input, skipReason ? null : recipient);
  const base = {
    workspace_id: input.workspaceId,
    contact_id: recipient?.contact_id ?? null,
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
  const resend = resendClient();
  if (!resend) {
    const [row] = await db`
      insert into public.email_sends ${db({ ...base, status: "outbox", provider: "outbox", sent_at: new Date() })} returning id`;
    return { id: row.id, status: "outbox" };
  }
  const { data, error } = await resend.emails.send({
    from: emailFrom(),
    to: input.to,
    subject: input.subject,
    html,
    text,
    headers,
  });
  const stored = (body: string | null) =>
    (input.redact ?? []).reduce((b, secret) => b?.replaceAll(secret, "[redacted]") ?? null, body);
  const [row] = await db`
    insert into public.email_sends ${db({
      ...base,
      html: stored(base.html),
      text_body: stored(base.text_body),
      status: error ? "failed" : "sent",
      skip_reason: error ? `${error.name}: ${error.message}` : null,
      provider: "resend",
      provider_message_id: data?.id ?? null,
      sent_at: error ? null : new Date(),
    })} returning id`;
  return error ? { id: row.id, status: "failed", skipReason: error.message } : { id: row.id, status: "sent" };
}
