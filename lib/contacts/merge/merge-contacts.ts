import { contactColumns } from "@/lib/contacts/contact-columns";
import type { ContactRow } from "@/lib/contacts/contact-row";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { asService, type Db } from "@/lib/db/doors";
import { writeConsent } from "@/lib/consent/consent-door";
import { refused, unwrap, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { writeCustomFieldValues } from "@/lib/contacts/custom-fields";
import { addNote } from "@/lib/notes/add-note";
import { mergeConsent, subscribedState } from "./merge-consent";
import { mergeCustomFields, type CustomFieldChoices } from "./merge-custom-fields";
import { moveDependents, type Moved } from "./merge-dependents";
import { resolveMergedFields, type MergeChoices, type MergeFieldKey } from "./merge-fields";
import { mergeNoteText } from "./merge-note";

export interface MergeContactsInput {
  /** the member's current workspace (trusted: the adapter resolved it) */
  workspaceId: string;
  /** A, the contact that stays (untrusted: looked up in the workspace) */
  keepId: string;
  /** B, merged into A and deleted (untrusted) */
  mergeId: string;
  choices: MergeChoices;
  /** the member's choice per custom field key (docs/decisions.md, "Custom fields") */
  customFields?: CustomFieldChoices;
  /** the member merging (the consent ledger's actor) */
  actorUserId: string;
}

export interface MergeOutcome {
  keepId: string;
  mergeId: string;
  /** B's email, for the note and the success message */
  mergedEmail: string;
  /** the fields whose value came from B */
  fromB: MergeFieldKey[];
  /** the custom field keys whose value came from B */
  customFromB: string[];
  /** per dependent table: rows moved to A, and B's rows A already had an equal of */
  moved: Record<string, Moved>;
  /** the consent ledger entry written, when the merged consent differs from A's */
  consentChanged: "subscribed" | "unsubscribed" | null;
}

const MERGE_NOT_SAME = "Choose two different contacts to merge.";

/**
 * Merges contact B into contact A (docs/decisions.md, "Merging contacts"), in the caller's
 * transaction, as the member (RLS limits both ids to the member's workspaces; the workspace is
 * checked as well, so ids of another workspace are "not found"):
 * 1. both rows are locked FOR UPDATE in id order, so two merges, or a merge and a write to either
 *    contact, run one after the other and never deadlock;
 * 2. every dependent record (spec 2.4.2 and every other foreign key to contacts) moves to A, as
 *    the service (members may not re-point submissions, sends or the ledger row by row);
 * 3. B is deleted, then A takes the picked fields and the merged consent (merge-consent.ts);
 * 4. a consent ledger entry when A's subscription changed, and a system note saying what came
 *    from where. The adapter writes the audit entry.
 */
export async function mergeContacts(db: Db, input: MergeContactsInput): Promise<Result<MergeOutcome>> {
  const { workspaceId } = input;
  if (!isUuid(input.keepId) || !isUuid(input.mergeId)) return refused("not_found", CONTACT_NOT_FOUND);
  // Postgres answers ids in lower case
  const [keepId, mergeId] = [input.keepId.toLowerCase(), input.mergeId.toLowerCase()];
  if (keepId === mergeId) return refused("invalid", MERGE_NOT_SAME);
  const locked = await db<ContactRow[]>`
    select ${db.unsafe(contactColumns("contacts"))} from public.contacts
    where workspace_id = ${workspaceId} and id in (${keepId}, ${mergeId})
    order by id
    for update`;
  const a = locked.find((c) => c.id === keepId);
  const b = locked.find((c) => c.id === mergeId);
  if (!a || !b) return refused("not_found", CONTACT_NOT_FOUND);

  const move = { workspaceId, keepId, mergeId };
  const moved = await asService(db, () => moveDependents(db, move));
  const reasons = await db<{ reason: string }[]>`
    select reason from public.contact_suppressions where workspace_id = ${workspaceId} and contact_id = ${keepId}`;
  const consent = mergeConsent(
    a,
    b,
    reasons.map((r) => r.reason),
  );
  const { values, fromB } = resolveMergedFields(a, b, input.choices);
  const custom = mergeCustomFields(a.custom_fields ?? {}, b.custom_fields ?? {}, input.customFields ?? {});

  await db`delete from public.contacts where workspace_id = ${workspaceId} and id = ${mergeId}`;
  // the merged consent (spec 4.10) is written through the consent door (docs/decisions.md, "The
  // database is the boundary"), with A's other fields in the same update
  const [updated] = await writeConsent(
    db,
    workspaceId,
    () => db<{ email: string }[]>`
      update public.contacts set ${db({ ...values, ...consent })}
      where workspace_id = ${workspaceId} and id = ${keepId}
      returning email`,
  );
  unwrap(
    await writeCustomFieldValues(db, {
      workspaceId,
      contactId: keepId,
      values: custom.values,
      replace: true,
    }),
  );
  // as the service: a pending submission (spec 2.3, keyed by email) of either address now
  // belongs to A's; and the outbound webhook contact.merged (migration …_contact_merge_b.sql)
  await asService(db, async () => {
    await db`
      update public.pending_form_submissions set email = ${updated.email}
      where workspace_id = ${workspaceId} and email in (${a.email}, ${b.email}) and email <> ${updated.email}`;
    await db`
      select public.emit_webhook_events('contact.merged', jsonb_build_array(jsonb_build_object(
        'workspace_id', ${workspaceId}::uuid,
        'data', jsonb_build_object('id', ${keepId}::uuid, 'merged_contact_id', ${mergeId}::uuid,
                                   'merged_email', ${b.email}::text))))`;
  });

  let consentChanged: MergeOutcome["consentChanged"] = null;
  if (subscribedState(consent) !== subscribedState(a)) {
    consentChanged = subscribedState(consent) ? "subscribed" : "unsubscribed";
    // the ledger too is written only through the consent door (docs/decisions.md, "The database is the boundary")
    await writeConsent(
      db,
      workspaceId,
      () => db`
        insert into public.consent_events (workspace_id, contact_id, action, flow, source, reason, actor_user_id)
        values (${workspaceId}, ${keepId}, ${consentChanged}, 'contact_merge', ${consent.opt_in_source},
                ${`merged with contact ${mergeId}`}, ${input.actorUserId})`,
    );
  }
  const outcome: MergeOutcome = {
    keepId,
    mergeId,
    mergedEmail: b.email,
    fromB,
    customFromB: custom.fromB,
    moved,
    consentChanged,
  };
  unwrap(
    await addNote(db, { workspaceId, contactId: keepId, text: mergeNoteText(outcome), createdBy: null }),
  );
  return { data: outcome };
}
