import type { Db } from "@/lib/db/doors";
import { recordDeliverySuppression } from "@/lib/consent/record-delivery-suppression";
import { storeDelivery } from "@/lib/webhooks/inbox";
import { isMachineEngagement, MACHINE_WINDOW_SECONDS } from "./machine-engagement";

/** The part of a Resend webhook event this service reads (Resend's EmailClickedEvent and kin). */
export interface EmailEvent {
  type: string;
  created_at?: string;
  data?: {
    email_id?: string;
    to?: string[] | string;
    bounce?: { type?: string };
    click?: { link?: string; timestamp?: string; userAgent?: string; ipAddress?: string };
  };
}

/** Resend's event types this service stores, and the email_events.type each becomes. */
export const ENGAGEMENT_TYPES = {
  "email.delivered": "delivered",
  "email.delivery_delayed": "delivery_delayed",
  "email.opened": "opened",
  "email.clicked": "clicked",
  "email.bounced": "bounced",
  "email.complained": "complained",
} as const;

export type EngagementType = (typeof ENGAGEMENT_TYPES)[keyof typeof ENGAGEMENT_TYPES];

const SUPPRESSING: Partial<
  Record<EngagementType, { reason: "bounce" | "complaint"; status: "bounced" | "complained" }>
> = {
  bounced: { reason: "bounce", status: "bounced" },
  complained: { reason: "complaint", status: "complained" },
};

export type IngestResult =
  { duplicate: true } | { duplicate: false; outcome: "done" | "ignored"; suppressed: number; stored: number };

interface SendRow {
  id: string;
  workspace_id: string;
  broadcast_id: string | null;
  contact_id: string | null;
  tracking: boolean;
  delivered_at: Date | null;
}

/** A time from the payload, if it is one; never later than now (a clock cannot be ahead of us). */
function payloadTime(value: string | undefined, now: Date): Date {
  const t = value ? new Date(value) : null;
  return t && !Number.isNaN(t.getTime()) && t <= now ? t : now;
}

function bounded(value: unknown, max: number): string | null {
  return typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;
}

function ipOrNull(value: unknown): string | null {
  const text = bounded(value, 64);
  return text && /^[0-9a-fA-F:.]+$/.test(text) ? text : null;
}

/**
 * Spec 6.1 and email engagement (docs/api.md): Resend's events for an email we sent.
 * - The delivery is stored in the inbox first, unique on the svix id, so a replay is
 *   acknowledged and ignored; and processed in the same transaction: a crash rolls both back and
 *   Resend delivers again. email_events is unique on the svix id as well.
 * - The send, its workspace and broadcast come from our own email_sends row for the email id,
 *   never from the payload (its addresses and ids are not trusted).
 * - 'email.bounced' creates a 'bounce' suppression, 'email.complained' a 'complaint' one.
 * - Opens and clicks are stored only when the send's workspace has tracking on; otherwise
 *   nothing of them is kept (the inbox row forgets the payload).
 * - An open or click is flagged is_machine by lib/email/machine-engagement.ts; a 'delivered'
 *   that arrives after them flags those that were within the window of it.
 */
export async function ingestEmailEvent(
  db: Db,
  input: { eventId: string; event: EmailEvent; now?: Date },
): Promise<IngestResult> {
  const now = input.now ?? new Date();
  const stored = await storeDelivery(db, {
    provider: "email",
    eventId: input.eventId,
    eventType: String(input.event.type ?? "unknown"),
    payload: input.event,
  });
  if (stored.duplicate) return { duplicate: true };

  const type: EngagementType | undefined = Object.hasOwn(ENGAGEMENT_TYPES, input.event.type)
    ? ENGAGEMENT_TYPES[input.event.type as keyof typeof ENGAGEMENT_TYPES]
    : undefined;
  const emailId = bounded(input.event.data?.email_id, 200);
  const sends =
    type && emailId
      ? await db<SendRow[]>`
        select s.id, s.workspace_id, s.broadcast_id, s.contact_id, w.email_tracking_enabled as tracking,
               coalesce(t.delivered_at, s.sent_at) as delivered_at
        from public.email_sends s
        join public.workspaces w on w.id = s.workspace_id
        left join public.email_send_stats t on t.email_send_id = s.id and t.workspace_id = s.workspace_id
        where s.provider = 'resend' and s.provider_message_id = ${emailId}`
      : [];

  const tracked = type === "opened" || type === "clicked";
  const click = type === "clicked" ? input.event.data?.click : undefined;
  const occurredAt = payloadTime(click?.timestamp ?? input.event.created_at, now);
  const linkUrl = bounded(click?.link, 2000);
  const userAgent = bounded(click?.userAgent, 1000);
  const ip = ipOrNull(click?.ipAddress);

  let suppressed = 0;
  let kept = 0;
  for (const send of sends) {
    if (tracked && !send.tracking) continue;
    const isMachine =
      tracked && isMachineEngagement({ type, occurredAt, deliveredAt: send.delivered_at, userAgent, ip });
    const inserted = await db`
      insert into public.email_events
        (workspace_id, email_send_id, broadcast_id, type, occurred_at, link_url, user_agent, ip, svix_id, is_machine)
      values (${send.workspace_id}, ${send.id}, ${send.broadcast_id}, ${type!}, ${occurredAt},
              ${linkUrl}, ${userAgent}, ${ip}, ${sends.length > 1 ? `${input.eventId}:${send.id}` : input.eventId},
              ${isMachine})
      on conflict (svix_id) do nothing
      returning id`;
    kept += inserted.length;
    if (type === "delivered") {
      // opens and clicks that came in before the delivery report but within the window of it
      await db`
        update public.email_events set is_machine = true
        where email_send_id = ${send.id} and workspace_id = ${send.workspace_id}
          and type in ('opened', 'clicked') and not is_machine
          and occurred_at < ${occurredAt}::timestamptz + make_interval(secs => ${MACHINE_WINDOW_SECONDS})`;
    }
    const suppressing = SUPPRESSING[type!];
    if (suppressing) {
      await db`update public.email_sends set status = ${suppressing.status}
               where id = ${send.id} and workspace_id = ${send.workspace_id}`;
      if (send.contact_id) {
        const { created } = await recordDeliverySuppression(db, {
          workspaceId: send.workspace_id,
          contactId: send.contact_id,
          reason: suppressing.reason,
        });
        if (created) suppressed += 1;
      }
    }
  }
  const outcome = kept > 0 || suppressed > 0 ? "done" : "ignored";
  // an open or click that is not kept leaves no trace of its payload (link, address, agent)
  const forget = tracked && kept === 0;
  // finished in the same statement (finishDelivery's 'done' or 'ignored', with the workspace)
  await db`
    update public.webhook_inbox
    set workspace_id = ${sends[0]?.workspace_id ?? null}, status = ${outcome}, last_error = null, processed_at = now()
        ${forget ? db`, payload = ${db.json({ type: input.event.type, untracked: true })}` : db``}
    where id = ${stored.id}`;
  return { duplicate: false, outcome, suppressed, stored: kept };
}
