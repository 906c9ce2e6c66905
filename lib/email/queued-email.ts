import type { Db } from "@/lib/db/doors";
import type { EmailKind } from "@/lib/consent/eligibility";
import { loadRecipient, skipReasonFor } from "./send-email";
import { metrics } from "@/lib/observability/metrics";

export interface QueuedEmail {
  id: string;
  workspace_id: string | null;
  contact_id: string | null;
  to_email: string;
  kind: EmailKind;
  subject: string;
  html: string | null;
  text_body: string | null;
  headers: Record<string, string>;
}

/**
 * A single email still to deliver (status 'queued'), or null when it is done (a rerun of its
 * job). Spec 8.3 is asked again: a contact suppressed (or erased) since the email was recorded
 * gets nothing, and the row becomes 'skipped' with the reason.
 */
export async function readQueuedEmail(
  db: Db,
  id: string,
): Promise<{ email: QueuedEmail } | { skipped: string } | null> {
  const [email] = await db<QueuedEmail[]>`
    select id, workspace_id, contact_id, to_email, kind, subject, html, text_body, headers
    from public.email_sends where id = ${id} and status = 'queued' and broadcast_id is null`;
  if (!email) return null;
  if (!email.to_email) {
    // erased meanwhile (privacy request): the address is gone, and so is the email
    await db`update public.email_sends set status = 'skipped', skip_reason = 'erased'
             where id = ${id} and status = 'queued'`;
    return { skipped: "erased" };
  }
  if (!email.contact_id) return { email };
  const recipient = await loadRecipient(db, email.workspace_id, email.contact_id);
  const reason = skipReasonFor(
    { workspaceId: email.workspace_id, contactId: email.contact_id, kind: email.kind },
    recipient,
  );
  if (!reason) return { email };
  await db`update public.email_sends set status = 'skipped', skip_reason = ${reason}
           where id = ${id} and status = 'queued'`;
  return { skipped: reason };
}

/**
 * The outcome of a delivery attempt on its row, only while the row is still 'queued' (so a
 * second run of the job, or one that lost the race, changes nothing). Returns whether it did.
 */
export async function recordEmailDelivery(
  db: Db,
  id: string,
  outcome: { providerId: string } | { error: string },
): Promise<boolean> {
  const rows =
    "error" in outcome
      ? await db`update public.email_sends set status = 'failed', skip_reason = ${outcome.error}
                 where id = ${id} and status = 'queued' returning id`
      : await db`update public.email_sends
                 set status = 'sent', provider_message_id = ${outcome.providerId}, sent_at = now(), skip_reason = null
                 where id = ${id} and status = 'queued' returning id`;
  if (rows.length > 0)
    metrics()
      .emailSends.labels("single", "error" in outcome ? "failed" : "sent")
      .inc();
  return rows.length > 0;
}
