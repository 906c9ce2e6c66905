import { afterPosition, microsSql, type TimelineRow, type TimelineSource } from "./types";

const TITLES: Record<string, string> = {
  delivered: "Email delivered",
  delivery_delayed: "Email delivery delayed",
  opened: "Email opened",
  clicked: "Link clicked",
  bounced: "Email bounced",
  complained: "Email reported as spam",
  unsubscribed: "Unsubscribed from an email",
};

const SEND_TITLES: Record<string, string> = {
  queued: "Email queued",
  outbox: "Email queued",
  sent: "Email sent",
  skipped: "Email not sent",
  failed: "Email failed",
  bounced: "Email sent (bounced)",
  complained: "Email sent (reported as spam)",
};

/** The emails sent (or queued, skipped) to the contact: email_sends, dated when they were made. */
export const emailSendEntries: TimelineSource = {
  kind: "email",
  query: (db, q) => db`(
    select s.created_at as at, ${microsSql(db, "s.created_at")} as micros, 'email' as kind, s.id::text as id,
      'System' as author,
      jsonb_build_object('status', s.status, 'subject', s.subject, 'kind', s.kind,
                         'skip_reason', s.skip_reason) as d
    from public.email_sends s
    where s.contact_id = ${q.contactId} and s.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "email", "s.created_at", "s.id", q.before)}
    order by s.created_at desc, s.id desc
    limit ${q.limit})`,
  render: (row) => renderEmail(row),
};

/** Both email sources share the kind 'email': an event's facts carry its type, a send's do not. */
function renderEmail({ d }: TimelineRow) {
  if ("type" in d) return renderEvent(d);
  return {
    title: SEND_TITLES[String(d.status)] ?? "Email",
    facts: [
      d.subject ? `Subject: ${d.subject}` : null,
      d.kind === "transactional" && "Transactional",
      d.skip_reason ? `Reason: ${d.skip_reason}` : null,
    ],
  };
}

/**
 * What became of the emails sent to the contact (docs/api.md, "Email engagement"): the
 * email_events of their sends, by the contact the database keeps on each event (migration
 * 20261127000700). An open or click made by software says so.
 */
export const emailEventEntries: TimelineSource = {
  kind: "email",
  query: (db, q) => db`(
    select e.occurred_at as at, ${microsSql(db, "e.occurred_at")} as micros, 'email' as kind, e.id::text as id,
      'System' as author,
      jsonb_build_object('type', e.type, 'link_url', e.link_url, 'is_machine', e.is_machine,
                         'subject', s.subject) as d
    from public.email_events e
    join public.email_sends s on s.id = e.email_send_id and s.workspace_id = e.workspace_id
    where e.contact_id = ${q.contactId} and e.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "email", "e.occurred_at", "e.id", q.before)}
    order by e.occurred_at desc, e.id desc
    limit ${q.limit})`,
  render: (row) => renderEmail(row),
};

function renderEvent(d: Record<string, unknown>) {
  return {
    title: TITLES[String(d.type)] ?? String(d.type),
    facts: [
      d.subject ? `Subject: ${d.subject}` : null,
      d.link_url ? `Link: ${d.link_url}` : null,
      d.is_machine === true && "Made by software (a privacy proxy or link scanner), not the recipient",
    ],
  };
}
