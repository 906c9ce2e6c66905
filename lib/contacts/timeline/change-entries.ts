import { afterPosition, authorSql, microsSql, type Fact, type TimelineSource } from "./types";

/** The audited changes the timeline shows: merges and source changes of this contact. */
export const CHANGE_ACTIONS = ["contact.merged", "contact.source_changed"] as const;

const TITLES: Record<string, string> = {
  "contact.merged": "Contacts merged",
  "contact.source_changed": "Source changed",
};

const isScalar = (v: unknown) => v !== null && typeof v !== "object";

/** One summary value as text: a scalar, a list of scalars, or a map of scalars ('notes 2, tasks 1'). */
function valueText(v: unknown): string | null {
  if (isScalar(v)) return String(v);
  if (Array.isArray(v)) return v.length && v.every(isScalar) ? v.join(", ") : null;
  if (v && typeof v === "object") {
    const entries = Object.entries(v).filter(([, x]) => isScalar(x));
    return entries.length ? entries.map(([k, x]) => `${k.replace(/_/g, " ")} ${x}`).join(", ") : null;
  }
  return null;
}

/** An audit summary's values (already redacted when written: recordAudit), bounded. */
function summaryFacts(...summaries: unknown[]): Fact[] {
  return summaries
    .flatMap((s) => (s && typeof s === "object" ? Object.entries(s as Record<string, unknown>) : []))
    .map(([k, v]) => [k, valueText(v)] as const)
    .filter(([, text]) => text)
    .slice(0, 10)
    .map(([k, text]) => `${k.replace(/_/g, " ")}: ${text!.slice(0, 200)}`);
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
      jsonb_build_object('action', a.action, 'before', a.before, 'after', a.after) as d
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
    return { title: TITLES[String(d.action)] ?? String(d.action), facts: summaryFacts(d.before, after) };
  },
};
