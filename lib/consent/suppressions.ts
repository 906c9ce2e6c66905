import type { Db } from "@/lib/db/doors";
import type { SuppressionReason } from "./email-status";
import { writeConsent } from "./consent-door";
import { loadConsentState } from "./load-consent-state";
import { refused, type Result } from "@/lib/errors/app-error";

export const COMPLAINT_IS_PERMANENT =
  "A spam complaint suppression is permanent: it cannot be removed, and this address never receives email again.";

export interface SuppressionRow {
  id: string;
  reason: SuppressionReason;
  created_at: Date;
}

/** Spec 2.6: a contact's suppressions with reason and date, oldest first. */
export async function listSuppressions(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<SuppressionRow[]> {
  return db<SuppressionRow[]>`
    select id, reason, created_at from public.contact_suppressions
    where contact_id = ${input.contactId} and workspace_id = ${input.workspaceId}
    order by created_at, reason`;
}

interface LedgerEntry {
  workspaceId: string;
  contactId: string;
  action: "suppressed" | "unsuppressed";
  flow: string;
  reason: string;
}

/** The entry itself, for a caller already inside the consent door. */
const ledgerEntry = (db: Db, e: LedgerEntry, actorUserId: string | null) => db`
  insert into public.consent_events (workspace_id, contact_id, action, flow, reason, actor_user_id)
  values (${e.workspaceId}, ${e.contactId}, ${e.action}, ${e.flow}, ${e.reason}, ${actorUserId})`;

// the ledger is written only through the consent door (docs/decisions.md, "The database is the boundary")
const ledger = (db: Db, e: LedgerEntry, actorUserId: string | null) =>
  writeConsent(db, e.workspaceId, () => ledgerEntry(db, e, actorUserId));

/**
 * Creates a suppression (one per reason per contact, spec 8.2) and its ledger entry. Returns
 * whether it is new: a second bounce of the same address changes nothing.
 */
export async function addSuppression(
  db: Db,
  input: {
    workspaceId: string;
    contactId: string;
    reason: SuppressionReason;
    flow: string;
    actorUserId?: string | null;
  },
): Promise<{ created: boolean }> {
  const [row] = await db`
    insert into public.contact_suppressions (workspace_id, contact_id, reason)
    values (${input.workspaceId}, ${input.contactId}, ${input.reason})
    on conflict (contact_id, reason) do nothing
    returning id`;
  if (row) await ledger(db, { ...input, action: "suppressed" }, input.actorUserId ?? null);
  return { created: Boolean(row) };
}

/** Dashboard: an administrator blocks all email to the contact ('manual', spec 2.6). */
export async function addManualSuppression(
  db: Db,
  input: { workspaceId: string; contactId: string; actorUserId: string },
): Promise<Result<{ created: boolean }>> {
  const state = await loadConsentState(db, input);
  if (!state) return refused("not_found", "Contact not found.");
  return { data: await addSuppression(db, { ...input, reason: "manual", flow: "manual_block" }) };
}

/**
 * Dashboard: removes a suppression of any reason but 'complaint', which is never removed by any
 * flow (spec 3.3; the database refuses it too).
 */
export async function removeSuppression(
  db: Db,
  input: { workspaceId: string; contactId: string; reason: string; actorUserId: string },
): Promise<Result<{ removed: boolean }>> {
  if (input.reason === "complaint") return refused("forbidden", COMPLAINT_IS_PERMANENT);
  const state = await loadConsentState(db, input);
  if (!state) return refused("not_found", "Contact not found.");
  // an 'unsubscribe' or 'bounce' goes only through the consent door (docs/decisions.md, "The database
  // is the boundary"), and its ledger entry with it: one pass through the door
  const removed = await writeConsent(db, state.workspace_id, async () => {
    const [row] = await db`
      delete from public.contact_suppressions
      where workspace_id = ${state.workspace_id} and contact_id = ${state.id} and reason = ${input.reason}
        and reason <> 'complaint'
      returning id`;
    if (row)
      await ledgerEntry(
        db,
        {
          workspaceId: state.workspace_id,
          contactId: state.id,
          action: "unsuppressed",
          flow: "suppression_removed",
          reason: input.reason,
        },
        input.actorUserId,
      );
    return Boolean(row);
  });
  return { data: { removed } };
}
