import type { Db } from "@/lib/db/doors";
import type { ConsentChange } from "./consent-rules";
import type { SuppressionReason } from "./email-status";

export async function suppressionReasons(db: Db, contactId: string): Promise<SuppressionReason[]> {
  const rows = await db`select reason from public.contact_suppressions where contact_id = ${contactId}`;
  return rows.map((r) => r.reason as SuppressionReason);
}

/**
 * Writes the suppression side of a consent change and its ledger entry. The contact columns
 * are written by the caller, usually in the same update as other fields (spec 4.10 step 2);
 * pass `writeColumns: true` to have them written here instead.
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
  },
): Promise<void> {
  const { change, contactId, workspaceId } = input;
  if (input.writeColumns) {
    await db`update public.contacts set ${db(change.columns)} where id = ${contactId}`;
  }
  const clear = change.clear.filter((reason) => reason !== "complaint");
  const removed = clear.length
    ? await db`delete from public.contact_suppressions where contact_id = ${contactId} and reason in ${db(clear)} returning reason`
    : [];
  if (change.add) {
    await db`
      insert into public.contact_suppressions (workspace_id, contact_id, reason)
      values (${workspaceId}, ${contactId}, ${change.add})
      on conflict (contact_id, reason) do nothing`;
  }
  await db`
    insert into public.consent_events
      (workspace_id, contact_id, action, flow, source, legal_basis, reason, ip, actor_user_id, actor_api_key_id)
    values (${workspaceId}, ${contactId}, ${change.action}, ${change.flow}, ${change.source ?? null},
            ${change.legalBasis ?? null},
            ${removed.length ? `cleared suppressions: ${removed.map((r) => r.reason).join(", ")}` : null},
            ${change.ip ?? null}, ${input.actorUserId ?? null}, ${input.actorApiKeyId ?? null})`;
}
