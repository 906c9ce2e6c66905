import type { Db } from "@/lib/db/doors";

/** One move: the workspace and the two contacts, both locked by the caller. */
export interface Move {
  workspaceId: string;
  /** A, the contact that stays */
  keepId: string;
  /** B, the contact merged into A and then deleted */
  mergeId: string;
}

/** What moving one table did: rows re-pointed to A, and B's rows A already had an equal of. */
export interface Moved {
  moved: number;
  /** B's rows not moved because A holds the same (a tag on both); they go with B */
  duplicates: number;
}

type Mover = (db: Db, move: Move) => Promise<Moved>;

/** Re-points every row of B in `table` to A. */
const repoint =
  (table: string): Mover =>
  async (db, { workspaceId, keepId, mergeId }) => {
    const rows = await db`
      update ${db(table)} set contact_id = ${keepId}
      where workspace_id = ${workspaceId} and contact_id = ${mergeId}`;
    return { moved: rows.count, duplicates: 0 };
  };

/**
 * For a link table whose key is (contact_id, `other`): B's links A also has are left to go with
 * B (cascade), the others move.
 */
const repointLinks =
  (table: string, other: string): Mover =>
  async (db, { workspaceId, keepId, mergeId }) => {
    const rows = await db`
      update ${db(table)} b set contact_id = ${keepId}
      where b.workspace_id = ${workspaceId} and b.contact_id = ${mergeId}
        and not exists (select 1 from ${db(table)} a
                        where a.contact_id = ${keepId} and a.${db(other)} = b.${db(other)})`;
    const [left] = await db<{ n: number }[]>`
      select count(*)::int as n from ${db(table)}
      where workspace_id = ${workspaceId} and contact_id = ${mergeId}`;
    return { moved: rows.count, duplicates: left.n };
  };

/**
 * Spec 2.6, one suppression per reason per contact: every reason B has and A lacks is written to
 * A with B's date, so the merged contact is blocked by either's (spec 8.3). They are copied, not
 * moved: a complaint can be neither updated nor deleted while its contact exists (spec 3.3); B's
 * rows go with B.
 */
const copySuppressions: Mover = async (db, { workspaceId, keepId, mergeId }) => {
  const rows = await db`
    insert into public.contact_suppressions (workspace_id, contact_id, reason, created_at)
    select workspace_id, ${keepId}, reason, created_at from public.contact_suppressions b
    where b.workspace_id = ${workspaceId} and b.contact_id = ${mergeId}
    on conflict (contact_id, reason) do nothing`;
  const [all] = await db<{ n: number }[]>`
    select count(*)::int as n from public.contact_suppressions
    where workspace_id = ${workspaceId} and contact_id = ${mergeId}`;
  return { moved: rows.count, duplicates: all.n - rows.count };
};

/**
 * The consent ledger is append-only; the merge is the one writer allowed to re-point entries,
 * naming the move in a transaction-local setting the ledger's trigger checks (migration
 * …_contact_merge.sql). A then holds both histories.
 */
const repointLedger: Mover = async (db, move) => {
  await db`select set_config('crm.contact_merge', ${`${move.mergeId}>${move.keepId}`}, true)`;
  const result = await repoint("consent_events")(db, move);
  await db`select set_config('crm.contact_merge', '', true)`;
  return result;
};

/**
 * One RSVP per event and contact (event_registrations_rsvp_key). When both hold one for the same
 * event, A's stays, unless A's is cancelled and B's is registered: then B's (the live one) does.
 */
const moveRegistrations: Mover = async (db, move) => {
  const { workspaceId, keepId, mergeId } = move;
  await db`
    delete from public.event_registrations a
    where a.workspace_id = ${workspaceId} and a.contact_id = ${keepId} and a.external_attendee_id is null
      and a.status = 'cancelled'
      and exists (select 1 from public.event_registrations b
                  where b.contact_id = ${mergeId} and b.event_id = a.event_id
                    and b.external_attendee_id is null and b.status = 'registered')`;
  const dropped = await db`
    delete from public.event_registrations b
    where b.workspace_id = ${workspaceId} and b.contact_id = ${mergeId} and b.external_attendee_id is null
      and exists (select 1 from public.event_registrations a
                  where a.contact_id = ${keepId} and a.event_id = b.event_id and a.external_attendee_id is null)`;
  const { moved } = await repoint("event_registrations")(db, move);
  return { moved, duplicates: dropped.count };
};

/**
 * One active enrollment per campaign and contact (campaign_enrollments_active_key): B's active
 * enrollment in a campaign A is active in is cancelled, then all of B's move.
 */
const moveEnrollments: Mover = async (db, move) => {
  const cancelled = await db`
    update public.campaign_enrollments b set status = 'cancelled'
    where b.workspace_id = ${move.workspaceId} and b.contact_id = ${move.mergeId} and b.status = 'active'
      and exists (select 1 from public.campaign_enrollments a
                  where a.contact_id = ${move.keepId} and a.campaign_id = b.campaign_id and a.status = 'active')`;
  const { moved } = await repoint("campaign_enrollments")(db, move);
  return { moved, duplicates: cancelled.count };
};

/**
 * One send per broadcast and contact (email_sends_broadcast_contact_key): a broadcast both
 * received keeps A's send; B's is kept with contact_id null, as deleting B would leave it (spec
 * 2.4.2, 'set null'), so the broadcast's counts do not change. The others move.
 */
const moveEmailSends: Mover = async (db, move) => {
  const detached = await db`
    update public.email_sends b set contact_id = null
    where b.workspace_id = ${move.workspaceId} and b.contact_id = ${move.mergeId} and b.broadcast_id is not null
      and exists (select 1 from public.email_sends a
                  where a.contact_id = ${move.keepId} and a.broadcast_id = b.broadcast_id)`;
  const { moved } = await repoint("email_sends")(db, move);
  return { moved, duplicates: detached.count };
};

/**
 * Subscription topics, one row per contact and topic (docs/decisions.md, "Subscription topics"):
 * the strictest state wins as for the overall flag (spec 8.3), so a topic A is in and B left is
 * left; then B's topics A has no row for move.
 */
const moveTopics: Mover = async (db, move) => {
  await db`
    update public.contact_topics a set subscribed = false, changed_at = now()
    where a.workspace_id = ${move.workspaceId} and a.contact_id = ${move.keepId} and a.subscribed
      and exists (select 1 from public.contact_topics b
                  where b.contact_id = ${move.mergeId} and b.topic_id = a.topic_id and not b.subscribed)`;
  return repointLinks("contact_topics", "topic_id")(db, move);
};

/**
 * "Not a duplicate" marks (docs/decisions.md, "Merging contacts"): B and C are two people, so A,
 * now B's person, and C are too. Each of B's pairs is copied to A (the other contact and who
 * said it kept, the pair in stored order), unless A has it or it is the pair A and B; B's rows go
 * with B (cascade), the pair A and B among them.
 */
const copyDismissals: Mover = async (db, { workspaceId, keepId, mergeId }) => {
  const rows = await db`
    insert into public.duplicate_dismissals (workspace_id, contact_id, other_contact_id, dismissed_by, created_at)
    select workspace_id, least(other, ${keepId}::uuid), greatest(other, ${keepId}::uuid), dismissed_by, created_at
    from (select workspace_id, dismissed_by, created_at,
                 case when contact_id = ${mergeId} then other_contact_id else contact_id end as other
          from public.duplicate_dismissals
          where workspace_id = ${workspaceId} and ${mergeId} in (contact_id, other_contact_id)) b
    where other <> ${keepId}
    on conflict (workspace_id, least(contact_id, other_contact_id), greatest(contact_id, other_contact_id))
    do nothing`;
  const [all] = await db<{ n: number }[]>`
    select count(*)::int as n from public.duplicate_dismissals
    where workspace_id = ${workspaceId} and ${mergeId} in (contact_id, other_contact_id)`;
  return { moved: rows.count, duplicates: all.n - rows.count };
};

/**
 * Every foreign key to contacts, by table (its columns: contact_id unless named), and how the
 * merge moves its rows. A test reads the
 * foreign keys from the catalog (pg_constraint) and fails while a table is missing here, so a
 * new table that references contacts cannot be forgotten by the merge.
 */
export const CONTACT_DEPENDENTS: Record<string, { move: Mover; columns?: readonly string[] }> = {
  contact_tags: { move: repointLinks("contact_tags", "tag_id") },
  notes: { move: repoint("notes") },
  company_contacts: { move: repointLinks("company_contacts", "company_id") },
  deals: { move: repoint("deals") },
  tasks: { move: repoint("tasks") },
  appointment_external_attendees: { move: repoint("appointment_external_attendees") },
  campaign_enrollments: { move: moveEnrollments },
  // who a campaign's enrollment segment held (docs/decisions.md, "Campaign enrollment from a
  // segment"): A is recorded wherever B was, so the merge does not look like A entering it
  campaign_segment_members: { move: repointLinks("campaign_segment_members", "campaign_id") },
  event_registrations: { move: moveRegistrations },
  transactions: { move: repoint("transactions") },
  email_sends: { move: moveEmailSends },
  // after email_sends: an event follows its send (a trigger of docs/decisions.md, "Contact
  // timeline"); this moves any event still naming B
  email_events: { move: repoint("email_events") },
  contact_topics: { move: moveTopics },
  contact_suppressions: { move: copySuppressions },
  agreement_contacts: { move: repointLinks("agreement_contacts", "agreement_id") },
  form_submissions: { move: repoint("form_submissions") },
  consent_events: { move: repointLedger },
  notifications: { move: repoint("notifications") },
  automation_runs: { move: repoint("automation_runs") },
  // recurring money (DESIGN section 9, "Recurring"): B's subscriptions and the memberships derived
  // from them are the same person's, so they follow to A (left on B, they would lose their contact
  // with B's deletion)
  subscriptions: { move: repoint("subscriptions") },
  memberships: { move: repoint("memberships") },
  duplicate_dismissals: { columns: ["contact_id", "other_contact_id"], move: copyDismissals },
};

/**
 * Tables referencing contacts that the database keeps from the contact's own row, so the merge
 * moves nothing: contact_field_values follows contacts.custom_fields (docs/decisions.md, "Custom
 * fields"), A's rows are rewritten when the merge writes A's values and B's go with B.
 */
export const CONTACT_DERIVED: Record<string, "contact_id"> = { contact_field_values: "contact_id" };

/**
 * Tables of a contact's own credentials, never moved: B's portal links and sessions go with B
 * (deleted with it), or a session B's person opened would become one of A's person
 * (docs/decisions.md, "Portal sessions").
 */
export const CONTACT_CREDENTIALS: Record<string, "contact_id"> = {
  portal_links: "contact_id",
  portal_sessions: "contact_id",
};

/**
 * Moves B's rows of every dependent table to A; what each move did. The tables are independent,
 * so their statements are sent together (postgres.js pipelines them on the transaction's
 * connection; the server still runs them one after another, each mover's in its order): one
 * round trip per step instead of one per table.
 */
export async function moveDependents(db: Db, move: Move): Promise<Record<string, Moved>> {
  const entries = Object.entries(CONTACT_DEPENDENTS);
  const outcomes = await Promise.all(entries.map(([, { move: run }]) => run(db, move)));
  return Object.fromEntries(entries.map(([table], i) => [table, outcomes[i]]));
}
