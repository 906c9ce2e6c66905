import { asService, type Db } from "@/lib/db/doors";
import { ineligibilityReason, type EmailKind } from "@/lib/consent/eligibility";
import { renderEmail, type RenderRecipient } from "./render-email";
import { enqueue } from "@/lib/jobs/enqueue";
import { resendClient } from "./resend-client";
import { log } from "@/lib/observability/log";

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
   * Secrets in the body (a link's token): replaced by "[redacted]" in the stored copy, which
   * the workspace's members read, whatever delivers the email (docs/decisions.md, "Secret
   * links are kept out of email_sends"). Resend's job carries the whole email; in the dev
   * outbox it is kept in email_send_secrets, which no member can read.
   */
  redact?: string[];
}

export interface SendEmailResult {
  id: string;
  /** 'queued': recorded, and handed to the worker that calls Resend */
  status: "queued" | "outbox" | "skipped";
  skipReason?: string;
}

export interface Recipient extends RenderRecipient {
  contact_id: string | null;
}

export async function loadRecipient(
  db: Db,
  workspaceId: string | null,
  contactId: string | null,
): Promise<Recipient | null> {
  if (workspaceId === null) return null;
  const [row] = await db<Recipient[]>`
    select c.id as contact_id, coalesce(c.is_subscribed, false) as is_subscribed, c.unsubscribed_at,
           coalesce((select array_agg(s.reason) from public.contact_suppressions s where s.contact_id = c.id), '{}') as suppressions,
           w.id as workspace_id, w.tracking_url, w.subscribe_footer_enabled, w.subscribe_footer_message, w.subscribe_footer_link_text
    from public.workspaces w
    left join public.contacts c on c.id = ${contactId} and c.workspace_id = w.id
    where w.id = ${workspaceId}`;
  return row ?? null;
}

/** Spec 8.3, for one send: the reason it is skipped, or null. */
export function skipReasonFor(
  input: Pick<SendEmailInput, "workspaceId" | "contactId" | "kind">,
  r: Recipient | null,
): string | null {
  if (input.workspaceId === null) return input.kind === "marketing" ? "not a contact" : null;
  if (!r) return "unknown workspace";
  if (input.contactId && !r.contact_id) return "contact not found";
  // marketing needs recorded consent, which only a contact can have
  if (!input.contactId) return input.kind === "marketing" ? "not a contact" : null;
  return ineligibilityReason(input.kind, r);
}

/**
 * The one way a single email leaves the service. Checks eligibility (spec 8.3), renders the
 * unsubscribe link or subscribe footer, and records the email as an email_sends row: 'skipped'
 * with its reason, 'outbox' when RESEND_API_KEY is unset (the dev outbox: the stored row is the
 * delivery), or 'queued' with its 'email-send' job in the caller's transaction when Resend
 * delivers. No provider call happens here, inside the caller's transaction and its locks: the
 * worker calls Resend after the commit, retries with backoff, and records 'sent' or, after its
 * last attempt, 'failed' (lib/email/flows/deliver-email.ts).
 *
 * The recipient and the workspace are read as the caller, so a member reaches only their own
 * workspace and its contacts; a workspace the caller cannot see is refused (UnknownWorkspace)
 * and nothing is written. The row and its job are then written through the service door
 * (docs/decisions.md, "The database is the boundary": no member writes email_sends).
 */
export async function sendEmail(db: Db, input: SendEmailInput): Promise<SendEmailResult> {
  const recipient = await loadRecipient(db, input.workspaceId, input.contactId);
  if (input.workspaceId !== null && !recipient) throw new UnknownWorkspace();
  return asService(db, () => recordEmail(db, input, recipient));
}

/** sendEmail for a workspace the caller is not a member of (or that does not exist). */
export class UnknownWorkspace extends Error {
  constructor() {
    super("The workspace of this email was not found.");
  }
}

async function recordEmail(
  db: Db,
  input: SendEmailInput,
  recipient: Recipient | null,
): Promise<SendEmailResult> {
  const skipReason = skipReasonFor(input, recipient);
  const { html, text, headers } = renderEmail(input, skipReason ? null : recipient);
  const stored = (body: string | null) =>
    (input.redact ?? [])
      .filter((secret) => secret !== "")
      .reduce((b, secret) => b?.replaceAll(secret, "[redacted]") ?? null, body);
  const redacted = { html: stored(html), text_body: stored(text ?? null) };
  const hasSecret = redacted.html !== html || redacted.text_body !== (text ?? null);
  const base = {
    workspace_id: input.workspaceId,
    contact_id: recipient?.contact_id ?? null,
    broadcast_id: input.broadcastId ?? null,
    to_email: input.to,
    kind: input.kind,
    subject: input.subject,
    ...redacted,
    headers: db.json(headers),
  };
  if (skipReason) {
    const [row] =
      await db`insert into public.email_sends ${db({ ...base, status: "skipped", skip_reason: skipReason })} returning id`;
    return { id: row.id, status: "skipped", skipReason };
  }
  if (!resendClient()) {
    const [row] = await db`
      insert into public.email_sends ${db({ ...base, status: "outbox", provider: "outbox", sent_at: new Date() })} returning id`;
    if (hasSecret)
      await db`insert into public.email_send_secrets ${db({ email_send_id: row.id, html, text_body: text ?? null })}`;
    if (hasSecret || input.workspaceId === null)
      logOutboxEmail(input, text ?? html, redacted.text_body ?? redacted.html ?? "");
    return { id: row.id, status: "outbox" };
  }
  const [row] = await db`
    insert into public.email_sends ${db({ ...base, status: "queued", provider: "resend" })}
    returning id`;
  // the stored copy has no usable link: the job carries the body to send (pgboss is service-only)
  const body = hasSecret ? { html, text } : {};
  await enqueue(db, {
    queue: "email-send",
    data: { workspaceId: input.workspaceId, emailSendId: row.id, ...body },
  });
  return { id: row.id, status: "queued" };
}

/**
 * The dev outbox's line in the server log (account emails, and emails with a secret link), so
 * whoever runs the server in development can open the link. Outside development the logs go to
 * others (a host's log service, support staff): the line carries the redacted copy, the link's
 * token never (docs/decisions.md "The dev outbox's log"). Tests read links from the database.
 */
function logOutboxEmail(input: SendEmailInput, whole: string, redacted: string): void {
  if (process.env.NODE_ENV === "test") return;
  const text = process.env.NODE_ENV === "development" ? whole : redacted;
  log.info({ to: input.to, subject: input.subject, text }, "dev outbox: email");
}
