"use server";

import { revalidatePath } from "next/cache";
import { withMember } from "@/lib/auth/context";
import { errorState, type FormState } from "@/lib/http/form-state";
import { updateProfile } from "@/lib/profiles/update-profile";
import { renameWorkspace } from "@/lib/workspaces/rename-workspace";

export async function renameWorkspaceAction(_prev: FormState, form: FormData): Promise<FormState> {
  const name = String(form.get("name") ?? "");
  const result = await withMember((db, ctx) =>
    renameWorkspace(db, { workspaceId: ctx.workspace.workspaceId, name }),
  );
  if ("error" in result) return errorState(result, { values: { name }, fields: ["name"] });
  revalidatePath("/", "layout");
  return { success: "Workspace name saved." };
}

export async function updateProfileAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = {
    firstName: String(form.get("firstName") ?? ""),
    lastName: String(form.get("lastName") ?? ""),
    timezone: String(form.get("timezone") ?? ""),
  };
  const result = await withMember((db) => updateProfile(db, values));
  if ("error" in result) return errorState(result, { values, fields: Object.keys(values) });
  revalidatePath("/", "layout");
  return { success: "Profile saved." };
}
