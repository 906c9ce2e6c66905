import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";

export interface DuplicatePairInput {
  /** the member's current workspace (trusted: the adapter resolved it) */
  workspaceId: string;
  /** the two contacts (untrusted: looked up in the workspace), in either order */
  contactId: string;
  otherContactId: string;
}

/** A pair as stored: the lower id first (migration …_duplicate_dismissals.sql). */
export function canonicalPair(x: string, y: string): [string, string] {
  const [a, b] = [x.toLowerCase(), y.toLowerCase()];
  return a < b ? [a, b] : [b, a];
}

/**
 * "Not a duplicate" (docs/decisions.md, "Merging contacts"): the member says the two contacts are
 * two people, and the possible-duplicates list leaves the pair out from now on. In the member's
 * transaction: RLS limits the contacts and the row to the member's workspaces, and the row names
 * the member. Both contacts are locked against deletion until the commit (FOR KEY SHARE), so a
 * concurrent delete or merge waits instead of failing the row's foreign keys. Marking a pair twice
 * changes nothing (`changed` false).
 */
export async function dismissDuplicate(
  db: Db,
  input: DuplicatePairInput & { userId: string },
): Promise<Result<{ pair: [string, string]; changed: boolean }>> {
  const pair = await lockPair(db, input);
  if (!pair) return refused("not_found", CONTACT_NOT_FOUND);
  const rows = await db`
    insert into public.duplicate_dismissals (workspace_id, contact_id, other_contact_id, dismissed_by)
    values (${input.workspaceId}, ${pair[0]}, ${pair[1]}, ${input.userId})
    on conflict (workspace_id, least(contact_id, other_contact_id), greatest(contact_id, other_contact_id))
    do nothing`;
  return { data: { pair, changed: rows.count > 0 } };
}

/** Undoes "Not a duplicate": the pair is listed again while it still matches. */
export async function restoreDuplicate(
  db: Db,
  input: DuplicatePairInput,
): Promise<Result<{ pair: [string, string]; changed: boolean }>> {
  const pair = await lockPair(db, input);
  if (!pair) return refused("not_found", CONTACT_NOT_FOUND);
  const rows = await db`
    delete from public.duplicate_dismissals
    where workspace_id = ${input.workspaceId}
      and least(contact_id, other_contact_id) = ${pair[0]}
      and greatest(contact_id, other_contact_id) = ${pair[1]}`;
  return { data: { pair, changed: rows.count > 0 } };
}

/** The pair in stored order when both contacts are two of the workspace's, else null. */
async function lockPair(db: Db, input: DuplicatePairInput): Promise<[string, string] | null> {
  if (!isUuid(input.contactId) || !isUuid(input.otherContactId)) return null;
  const pair = canonicalPair(input.contactId, input.otherContactId);
  if (pair[0] === pair[1]) return null;
  const found = await db`
    select id from public.contacts
    where workspace_id = ${input.workspaceId} and id in (${pair[0]}, ${pair[1]})
    order by id
    for key share`;
  return found.length === 2 ? pair : null;
}
