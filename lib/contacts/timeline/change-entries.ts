import { afterPosition, authorSql, microsSql, type Fact, type TimelineSource } from "./types";

/**
 * The audited changes the timeline shows: merges and source changes of this contact, and what the
 * contact did in the portal (docs/decisions.md, "Portal sessions").
 */
export const CHANGE_ACTIONS = [
  "contact.merged",
  "contact.source_changed",
  "contact.portal_link_sent",
  "contact.portal_signed_in",
  "contact.portal_signed_out",
  "contact.portal_details_corrected",
  "contact.portal_email_change_requested",
  "contact.portal_email_changed",
  "contact.portal_topics_changed",
  "contact.portal_rsvp_cancelled",
  "contact.portal_receipt_downloaded",
  "contact.portal_exported",
  "contact.portal_erasure_requested",
  "contact.portal_billing_opened",
] as const;

const TITLES: Record<string, string> = {
  "contact.merged": "Contacts merged",
  "contact.source_changed": "Source changed",
  "contact.portal_link_sent": "Portal sign-in link sent",
  "contact.portal_signed_in": "Signed in to the portal",
  "contact.portal_signed_out": "Signed out of the portal",
  "contact.portal_details_corrected": "Corrected their details in the portal",
  "contact.portal_email_change_requested": "Asked to change their email address in the portal",
  "contact.portal_email_changed": "Confirmed a new email address from the portal",
  "contact.portal_topics_changed": "Changed their email topics in the portal",
  "contact.portal_rsvp_cancelled": "Cancelled an RSVP in the portal",
  "contact.portal_receipt_downloaded": "Downloaded a receipt from the portal",
  "contact.portal_exported": "Downloaded their data from the portal",
  "contact.portal_erasure_requested": "Asked for erasure in the portal",
  "contact.portal_billing_opened": "Opened their billing (Stripe) from the portal",
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
           when a.action like 'contact.portal\_%' then 'The contact (portal)'
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
