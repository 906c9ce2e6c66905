"use server";

import { revalidatePath } from "next/cache";
import { withMember } from "@/lib/auth/context";
import type { FormState } from "@/lib/http/form-state";
import { createTag } from "@/lib/tags/create-tag";
import { deleteTag } from "@/lib/tags/delete-tag";
import { renameTag } from "@/lib/tags/rename-tag";

export async function createTagAction(_prev: FormState, form: FormData): Promise<FormState> {
  const name = String(form.get("name") ?? "");
  const result = await withMember((db, ctx) =>
    createTag(db, { workspaceId: ctx.workspace.workspaceId, name }),
  );
  if ("error" in result) return { errors: { name: result.error }, values: { name } };
  revalidatePath("/contacts/tags");
  return { success: `Tag '${result.data.name}' created.`, values: { name: "" } };
}

export async function renameTagAction(tagId: string, _prev: FormState, form: FormData): Promise<FormState> {
  const name = String(form.get("name") ?? "");
  const result = await withMember((db, ctx) =>
    renameTag(db, { workspaceId: ctx.workspace.workspaceId, tagId, name }),
  );
  if ("error" in result) return { errors: { name: result.error }, values: { name } };
  revalidatePath("/contacts/tags");
  return { success: `Renamed to '${result.data.name}'.`, values: { name: result.data.name } };
}

export async function deleteTagAction(tagId: string, _prev: FormState): Promise<FormState> {
  const result = await withMember((db, ctx) =>
    deleteTag(db, { workspaceId: ctx.workspace.workspaceId, tagId }),
  );
  if ("error" in result) return { message: result.error };
  revalidatePath("/contacts/tags");
  return { success: "Tag deleted." };
}
