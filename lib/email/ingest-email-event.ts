import type { Db } from "@/lib/db/doors";
import { recordDeliverySuppression } from "@/lib/consent/record-delivery-suppression";
import { finishDelivery, storeDelivery } from "@/lib/webhooks/inbox";

/** The part of a Resend webhook event this service reads. */
export interface EmailEvent {
  type: string;
  created_at?: string;
  data?: { email_id?: string; to?: string[] | string; bounce?: { type?: string } };
}

const HANDLED: Record<string, { reason: "bounce" | "complaint"; status: "bounced" | "complained" }> = {
  "email.bounced": { reason: "bounce", status: "bounced" },
  "email.complained": { reason: "complaint", status: "complained" },
};

export type IngestResult =
  { duplicate: true } | { duplicate: false; outcome: "done" | "ignored"; suppressed: number };

/**
 * Spec 6.1: a delivery failure ('email.bounced') creates a 'bounce' suppression, a spam report
 * ('email.complained') a 'complaint' one. The event is stored in the inbox first (unique on the
 * svix id, so a replay is acknowledged and ignored) and processed in the same transaction: a crash
 * rolls both back and Resend delivers again. The contact and workspace come from our own
 * email_sends row for the email id, never from the payload's address.
 */
export async function ingestEmailEvent(
  db: Db,
  input: { eventId: string; event: EmailEvent },
): Promise<IngestResult> {
  const stored = await storeDelivery(db, {
    provider: "email",
    eventId: input.eventId,
    eventType: String(input.event.type ?? "unknown"),
    payload: input.event,
  });
  if (stored.duplicate) return { duplicate: true };

  const handled = HANDLED[input.event.type];
  const emailId = input.event.data?.email_id;
  const sends =
    handled && emailId
      ? await db<{ workspace_id: string; contact_id: string | null }[]>`
        update public.email_sends set status = ${handled.status}
        where provider = 'resend' and provider_message_id = ${emailId}
        returning workspace_id, contact_id`
      : [];
  let suppressed = 0;
  for (const send of sends) {
    if (!send.contact_id) continue;
    const { created } = await recordDeliverySuppression(db, {
      workspaceId: send.workspace_id,
      contactId: send.contact_id,
      reason: handled.reason,
    });
    if (created) suppressed += 1;
  }
  const outcome = sends.length ? "done" : "ignored";
  await db`update public.webhook_inbox set workspace_id = ${sends[0]?.workspace_id ?? null} where id = ${stored.id}`;
  await finishDelivery(db, stored.id, { status: outcome });
  return { duplicate: false, outcome, suppressed };
}
