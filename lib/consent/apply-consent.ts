import type { Db } from "@/lib/db/doors";
import { writeConsent } from "./consent-door";
import type { ConsentChange } from "./consent-rules";
import type { SuppressionReason } from "./email-status";

export async function suppressionReasons(db: Db, contactId: string): Promise<SuppressionReason[]> {
  const rows = await db`select reason from public.contact_suppressions where contact_id = ${contactId}`;
  return rows.map((r) => r.reason as SuppressionReason);
}

/**
 * Writes the suppression side of a consent change and its ledger entry. The contact columns
 * are written by the caller, usually in the same update as other fields (spec 4.10 step 2);
 * pass `writeColumns: true` to have them written here instead. Written through the consent door
 * (consent-door.ts): a member's caller writes as the service, once checked.
 */
export async function applyConsent(
  db: Db,
  input: {
    workspaceId: string;
    contactId: string;
    change: ConsentChange;
    actorUserId?: string | null;
    /** the API key that made the change (docs/api.md): the ledger's actor instead of a member */
    actorApiKeyId?: string | null;
    writeColumns?: boolean;
    /**
     * The topics the change concerns (docs/decisions.md, "Subscription topics"): their rows in
     * contact_topics follow the change and the ledger gets one entry per topic, with the same
     * proof. None: the overall consent, one entry, as before topics (the database then keeps
     * the topics in step with is_subscribed, public.sync_contact_topics).
     */
    topicIds?: readonly string[];
  },
): Promise<void> {
  await writeConsent(db, input.workspaceId, () => writeChange(db, input));
}

async function writeChange(db: Db, input: Parameters<typeof applyConsent>[1]): Promise<void> {
  const { change, contactId, workspaceId } = input;
  if (input.writeColumns) {
    await db`update public.contacts set ${db(change.columns)} where id = ${contactId} and workspace_id = ${workspaceId}`;
  }
  const clear = change.clear.filter((reason) => reason !== "complaint");
  const topicIds = input.topicIds?.length ? [...new Set(input.topicIds)] : null;
  if (clear.length && !change.add && !topicIds) {
    // the common grant (a form, a subscribe with no topics): the suppressions cleared and the
    // ledger entry that names them in one statement, one round trip (docs/performance.md, "The
    // public paths"); the entry's AFTER triggers run once the delete is done, as before
    await db`
      with removed as (
        delete from public.contact_suppressions
        where contact_id = ${contactId} and workspace_id = ${workspaceId} and reason in ${db(clear)}
        returning reason
      )
      insert into public.consent_events
        (workspace_id, contact_id, action, flow, source, legal_basis, reason, ip, actor_user_id, actor_api_key_id,
         topic_id)
      select ${workspaceId}::uuid, ${contactId}::uuid, ${change.action}::text, ${change.flow}::text,
             ${change.source ?? null}::text, ${change.legalBasis ?? null}::text,
             (select 'cleared suppressions: ' || string_agg(reason, ', ') from removed),
             ${change.ip ?? null}::inet, ${input.actorUserId ?? null}::uuid, ${input.actorApiKeyId ?? null}::uuid,
             null`;
    return;
  }
  const removed = clear.length
    ? await db`
        delete from public.contact_suppressions
        where contact_id = ${contactId} and workspace_id = ${workspaceId} and reason in ${db(clear)}
        returning reason`
    : [];
  if (change.add) {
    await db`
      insert into public.contact_suppressions (workspace_id, contact_id, reason)
      values (${workspaceId}, ${contactId}, ${change.add})
      on conflict (contact_id, reason) do nothing`;
  }
  if (topicIds)
    await setContactTopics(db, { workspaceId, contactId, topicIds, on: change.action === "subscribed" });
  const reason = removed.length ? `cleared suppressions: ${removed.map((r) => r.reason).join(", ")}` : null;
  const entry = (topicId: string | null) => db`
    insert into public.consent_events
      (workspace_id, contact_id, action, flow, source, legal_basis, reason, ip, actor_user_id, actor_api_key_id,
       topic_id)
    values (${workspaceId}, ${contactId}, ${change.action}, ${change.flow}, ${change.source ?? null},
            ${change.legalBasis ?? null}, ${reason}, ${change.ip ?? null}, ${input.actorUserId ?? null},
            ${input.actorApiKeyId ?? null}, ${topicId})`;
  await Promise.all((topicIds ?? [null]).map(entry));
}

/** Turns the contact's rows of `topicIds` on or off (a row per topic ever joined). */
export async function setContactTopics(
  db: Db,
  input: { workspaceId: string; contactId: string; topicIds: readonly string[]; on: boolean },
): Promise<void> {
  await db`
    insert into public.contact_topics (workspace_id, contact_id, topic_id, subscribed)
    select ${input.workspaceId}::uuid, ${input.contactId}::uuid, t.id, ${input.on}::boolean
    from unnest(${[...input.topicIds]}::uuid[]) as t(id)
    on conflict (contact_id, topic_id) do update set subscribed = excluded.subscribed, changed_at = now()
    where contact_topics.subscribed is distinct from excluded.subscribed`;
}
