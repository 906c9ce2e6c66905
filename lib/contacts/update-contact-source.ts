import type { Db } from "@/lib/db/doors";
import { escapeHtml } from "@/lib/html/escape";
import { addNote } from "@/lib/notes/add-note";
import { CONTACT_NOT_FOUND, CONTACT_SOURCES } from "./types";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Refused } from "@/lib/errors/app-error";

export const INSUFFICIENT_PERMISSIONS = "Insufficient permissions";

export interface UpdateContactSourceInput {
  contactId: string;
  workspaceId: string;
  newSource: string;
  reason: string;
}

/**
 * Spec 4.15 updateContactSource: owners and admins only ('Insufficient permissions'
 * otherwise, decided from the caller's role in the database, not from the client). On
 * success a system note records the old source, the new source, the user and the reason.
 * The source-protection trigger lets exactly these callers through.
 */
export async function updateContactSource(
  db: Db,
  input: UpdateContactSourceInput,
): Promise<{ success: true } | Refused> {
  if (!isUuid(input.contactId)) return refused("not_found", CONTACT_NOT_FOUND);
  const [caller] = await db<{ allowed: boolean; name: string | null }[]>`
    select public.has_workspace_role(${input.workspaceId}, array['owner', 'admin']) as allowed,
      (select nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), '') || coalesce(' <' || p.email || '>', '')
         from public.user_profiles p where p.id = auth.uid()) as name`;
  if (!caller.allowed) return refused("forbidden", INSUFFICIENT_PERMISSIONS);

  const newSource = input.newSource.trim();
  const reason = input.reason.trim();
  if (!(CONTACT_SOURCES as readonly string[]).includes(newSource))
    return refused("invalid", `Choose one of: ${CONTACT_SOURCES.join(", ")}.`);
  if (!reason) return refused("invalid", "Give a reason for the change.");
  if (reason.length > 1000) return refused("invalid", "The reason can be at most 1,000 characters.");

  const [before] = await db<{ source: string }[]>`
    select source from public.contacts
    where id = ${input.contactId} and workspace_id = ${input.workspaceId}
    for update`;
  if (!before) return refused("not_found", CONTACT_NOT_FOUND);
  if (before.source === newSource) return refused("invalid", `The source is already '${newSource}'.`);

  const [after] = await db<{ source: string }[]>`
    update public.contacts set source = ${newSource}
    where id = ${input.contactId} and workspace_id = ${input.workspaceId}
    returning source`;
  // the contacts trigger (public.contacts_protect_source) keeps the old value for anyone else
  if (after.source !== newSource) return refused("forbidden", INSUFFICIENT_PERMISSIONS);

  const user = caller.name ?? "a workspace member";
  const text = `Source changed from '${before.source}' to '${newSource}' by ${user}. Reason: ${reason}`;
  const html =
    `<p>Source changed from <strong>${escapeHtml(before.source)}</strong> to ` +
    `<strong>${escapeHtml(newSource)}</strong> by ${escapeHtml(user)}.</p>` +
    `<p>Reason: ${escapeHtml(reason)}</p>`;
  const note = await addNote(db, {
    workspaceId: input.workspaceId,
    contactId: input.contactId,
    type: "contact",
    text,
    html,
    createdBy: null,
  });
  if ("error" in note) throw note.error;
  return { success: true };
}
