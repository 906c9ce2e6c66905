"use server";

import { revalidatePath } from "next/cache";
import { withMember } from "@/lib/auth/context";
import { isUuid } from "@/lib/ids/uuid";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import type { FormState } from "@/lib/http/form-state";
import { addNote } from "@/lib/notes/add-note";
import { attachTagByName } from "@/lib/tags/attach-tag-by-name";
import { detachTag } from "@/lib/tags/detach-tag";

// The contact page's own actions: notes and tags. The workspace is the member's current one.

export async function addNoteAction(contactId: string, _prev: FormState, form: FormData): Promise<FormState> {
  const text = String(form.get("text") ?? "");
  if (!isUuid(contactId)) return { message: CONTACT_NOT_FOUND };
  const result = await withMember(async (db, ctx) => {
    const [found] = await db`
      select 1 from public.contacts where id = ${contactId} and workspace_id = ${ctx.workspace.workspaceId}`;
    if (!found) return { error: CONTACT_NOT_FOUND };
    return addNote(db, {
      workspaceId: ctx.workspace.workspaceId,
      contactId,
      type: "contact",
      text,
      createdBy: ctx.userId,
    });
  });
  if ("error" in result) return { errors: { text: result.error }, values: { text } };
  revalidatePath(`/contacts/${contactId}`);
  return { success: "Note added." };
}

export async function attachTagAction(
  contactId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const name = String(form.get("name") ?? "");
  const result = await withMember((db, ctx) =>
    attachTagByName(db, { workspaceId: ctx.workspace.workspaceId, contactId, name }),
  );
  if ("error" in result) return { errors: { name: result.error }, values: { name } };
  revalidatePath(`/contacts/${contactId}`);
  return { success: result.attached ? `Tagged ${name.trim()}.` : `Already tagged ${name.trim()}.` };
}

export async function detachTagAction(contactId: string, tagId: string): Promise<void> {
  await withMember((db, ctx) => detachTag(db, { workspaceId: ctx.workspace.workspaceId, contactId, tagId }));
  revalidatePath(`/contacts/${contactId}`);
}
