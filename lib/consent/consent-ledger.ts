import { toCsv } from "@/lib/csv/to-csv";
import type { Db } from "@/lib/db/doors";

export interface LedgerEntry {
  id: string;
  action: "subscribed" | "unsubscribed" | "suppressed" | "unsuppressed";
  flow: string;
  source: string | null;
  legal_basis: string | null;
  reason: string | null;
  ip: string | null;
  actor: string | null;
  /** the subscription topic the change concerns; null: the overall consent (docs/decisions.md, "Subscription topics") */
  topic: string | null;
  created_at: Date;
}

/** Beyond the spec (spec 3.3 consent state): a contact's consent ledger, newest first, with who acted (a member, an API key; null = the system or the person). */
export async function getConsentLedger(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<LedgerEntry[]> {
  return db<LedgerEntry[]>`
    select e.id, e.action, e.flow, e.source, e.legal_basis, e.reason, host(e.ip) as ip, e.created_at,
           coalesce(nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''),
                    'API key: ' || k.name) as actor,
           tp.name as topic
    from public.consent_events e
    left join public.email_topics tp on tp.id = e.topic_id and tp.workspace_id = e.workspace_id
    left join public.user_profiles p on p.id = e.actor_user_id
    left join public.api_keys k on k.id = e.actor_api_key_id and k.workspace_id = e.workspace_id
    where e.contact_id = ${input.contactId} and e.workspace_id = ${input.workspaceId}
    order by e.created_at desc, e.id`;
}

const SELF_SERVICE = new Set(["unsubscribe_link", "resubscribe_link", "form", "rsvp"]);

/** Who made a change: the member, the person themself (links, forms, RSVP) or the system. */
export function actorLabel(entry: Pick<LedgerEntry, "actor" | "flow">): string {
  return entry.actor ?? (SELF_SERVICE.has(entry.flow) ? "Contact" : "System");
}

/**
 * The ledger as CSV (RFC 4180), oldest first, for a GDPR request. toCsv prefixes a cell a
 * spreadsheet would run as a formula, so it stays text.
 */
export function consentLedgerCsv(email: string, entries: LedgerEntry[]): string {
  const fields = [
    "timestamp",
    "email",
    "action",
    "flow",
    "source",
    "legal_basis",
    "reason",
    "ip",
    "actor",
    "topic",
  ];
  const data = [...entries]
    .reverse()
    .map((e) => [
      e.created_at instanceof Date ? e.created_at.toISOString() : e.created_at,
      email,
      e.action,
      e.flow,
      e.source,
      e.legal_basis,
      e.reason,
      e.ip,
      actorLabel(e),
      e.topic ?? null,
    ]);
  return toCsv({ fields, data }, { newline: "\r\n" }) + "\r\n";
}
