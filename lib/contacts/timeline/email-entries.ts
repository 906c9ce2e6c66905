import { afterPosition, microsSql, titledEntry, type TimelineSource } from "./types";

const TITLES: Record<string, string> = {
  delivered: "Email delivered",
  delivery_delayed: "Email delivery delayed",
  opened: "Email opened",
  clicked: "Link clicked",
  bounced: "Email bounced",
  complained: "Email reported as spam",
  unsubscribed: "Unsubscribed from an email",
};

interface EmailEventRow {
  id: string;
  occurred_at: Date;
  micros: string;
  type: string;
  link_url: string | null;
  is_machine: boolean;
  subject: string;
}

/**
 * What became of the emails sent to the contact (docs/api.md, "Email engagement"): the
 * email_events of their sends. An open or click made by software says so.
 */
export const emailEntries: TimelineSource = async (db, q) => {
  const rows = await db<EmailEventRow[]>`
    select e.id, e.occurred_at, ${microsSql(db, "e.occurred_at")} as micros, e.type, e.link_url, e.is_machine,
           s.subject
    from public.email_events e
    join public.email_sends s on s.id = e.email_send_id and s.workspace_id = e.workspace_id
    where s.contact_id = ${q.contactId} and s.workspace_id = ${q.workspaceId} and e.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "e.occurred_at", "e.id", q.before)}
    order by e.occurred_at desc, e.id desc
    limit ${q.limit}`;
  return rows.map((r) =>
    titledEntry("email", r, r.occurred_at, "System", TITLES[r.type] ?? r.type, [
      r.subject && `Subject: ${r.subject}`,
      r.link_url && `Link: ${r.link_url}`,
      r.is_machine && "Made by software (a privacy proxy or link scanner), not the recipient",
    ]),
  );
};
