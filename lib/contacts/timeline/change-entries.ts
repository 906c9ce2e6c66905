import { afterPosition, authorSql, microsSql, type Fact, type TimelineSource } from "./types";

/** The audited changes the timeline shows: merges and source changes of this contact. */
export const CHANGE_ACTIONS = ["contact.merged", "contact.source_changed"] as const;

const TITLES: Record<string, string> = {
  "contact.merged": "Contacts merged",
  "contact.source_changed": "Source changed",
};

/** An audit summary's plain values (already redacted when written: recordAudit), bounded. */
function summaryFacts(after: unknown): Fact[] {
  if (!after || typeof after !== "object") return [];
  return Object.entries(after as Record<string, unknown>)
    .filter(([, v]) => v !== null && typeof v !== "object")
    .slice(0, 10)
    .map(([k, v]) => `${k.replace(/_/g, " ")}: ${String(v).slice(0, 200)}`);
}

/**
 * Merges and source changes from the audit log (audit_log, target the contact). The audit log
 * is owners-only by RLS, so other members' timelines leave these out (docs/decisions.md,
 * "Contact timeline").
 */
export const changeEntries: TimelineSource = {
  kind: "change",
  query: (db, q) => db`(
    select a.created_at as at, ${microsSql(db, "a.created_at")} as micros, 'change' as kind,
      lpad(a.id::text, 20, '0') as id,
      case when a.actor_api_key_name is not null then 'API key ' || a.actor_api_key_name
           else ${authorSql(db, "a.actor_id")} end as author,
      jsonb_build_object('action', a.action, 'after', a.after) as d
    from public.audit_log a
    where a.workspace_id = ${q.workspaceId} and a.target_type = 'contact' and a.target_id = ${q.contactId}
      and a.action in ${db(CHANGE_ACTIONS as unknown as string[])}
      ${afterPosition(db, "change", "a.created_at", "a.id", q.before, "bigint")}
    order by a.created_at desc, a.id desc
    limit ${q.limit})`,
  render: ({ d }) => {
    const after = (d.after ?? {}) as Record<string, unknown>;
    if (d.action === "contact.source_changed")
      return {
        title: TITLES[d.action],
        facts: [after.source ? `Source: ${after.source}` : "Source cleared"],
      };
    return { title: TITLES[String(d.action)] ?? String(d.action), facts: summaryFacts(after) };
  },
};
