import { afterPosition, authorSql, microsSql, type TimelineSource } from "./types";

const ACTIONS: Record<string, string> = {
  subscribed: "Subscribed to marketing email",
  unsubscribed: "Unsubscribed from marketing email",
  suppressed: "Email suppressed",
  unsuppressed: "Suppression removed",
};

const str = (v: unknown) => (typeof v === "string" && v ? v : null);

/** The consent ledger (consent_events): each grant, withdrawal and suppression change. */
export const consentEntries: TimelineSource = {
  kind: "consent",
  query: (db, q) => db`(
    select e.created_at as at, ${microsSql(db, "e.created_at")} as micros, 'consent' as kind, e.id::text as id,
      ${authorSql(db, "e.actor_user_id")} as author,
      jsonb_build_object('action', e.action, 'source', e.source, 'legal_basis', e.legal_basis,
                         'reason', e.reason, 'ip', ${q.withoutIp ? db`null` : db`host(e.ip)`}) as d
    from public.consent_events e
    where e.contact_id = ${q.contactId} and e.workspace_id = ${q.workspaceId}
      ${afterPosition(db, "consent", "e.created_at", "e.id", q.before)}
    order by e.created_at desc, e.id desc
    limit ${q.limit})`,
  render: ({ d }) => ({
    title: ACTIONS[String(d.action)] ?? String(d.action),
    facts: [
      str(d.source) && `Source: ${d.source}`,
      str(d.legal_basis) && `Legal basis: ${d.legal_basis}`,
      str(d.reason) && `Reason: ${d.reason}`,
      str(d.ip) && `IP: ${d.ip}`,
    ],
  }),
};
