import { afterPosition, authorSql, microsSql, titledEntry, type TimelineSource } from "./types";

const ACTIONS: Record<string, string> = {
  subscribed: "Subscribed to marketing email",
  unsubscribed: "Unsubscribed from marketing email",
  suppressed: "Email suppressed",
  unsuppressed: "Suppression removed",
};

interface ConsentRow {
  id: string;
  created_at: Date;
  micros: string;
  author: string;
  action: string;
  flow: string;
  source: string | null;
  legal_basis: string | null;
  reason: string | null;
  ip: string | null;
}

/** The consent ledger (consent_events): each grant, withdrawal and suppression change. */
export const consentEntries: TimelineSource = async (db, q) => {
  const rows = await db<ConsentRow[]>`
    select e.id, e.created_at, ${microsSql(db, "e.created_at")} as micros, e.action, e.flow, e.source, e.legal_basis, e.reason, host(e.ip) as ip,
      ${authorSql(db, "e.actor_user_id")} as author
    from public.consent_events e
    where e.contact_id = ${q.contactId} and e.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "e.created_at", "e.id", q.before)}
    order by e.created_at desc, e.id desc
    limit ${q.limit}`;
  return rows.map((r) =>
    titledEntry("consent", r, r.created_at, r.author, ACTIONS[r.action] ?? r.action, [
      r.source && `Source: ${r.source}`,
      r.legal_basis && `Legal basis: ${r.legal_basis}`,
      r.reason && `Reason: ${r.reason}`,
      r.ip && `IP: ${r.ip}`,
    ]),
  );
};
