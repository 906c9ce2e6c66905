"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { requireMember, withMember } from "@/lib/auth/context";
import { accountProvisioner } from "@/lib/auth/provision-account";
import { WORKSPACE_COOKIE } from "@/lib/auth/session";
import { errorState, type FormState } from "@/lib/http/form-state";
import { addMemberByEmail } from "@/lib/workspaces/add-member";
import { changeMemberRole } from "@/lib/workspaces/change-member-role";
import { removeMember } from "@/lib/workspaces/remove-member";

export interface AddMemberState extends FormState {
  /** Shown once, right after the account was created; never stored or shown again. */
  temporaryPassword?: string;
  addedEmail?: string;
}

const field = (form: FormData, name: string) => String(form.get(name) ?? "");

export async function addMemberAction(_prev: AddMemberState, form: FormData): Promise<AddMemberState> {
  const values = { email: field(form, "email"), role: field(form, "role") };
  const { workspace } = await requireMember();
  const result = await addMemberByEmail((fn) => withMember((db) => fn(db)), accountProvisioner(), {
    workspaceId: workspace.workspaceId,
    email: values.email,
    role: values.role as "member",
  });
  if ("error" in result) return errorState(result, { values, fields: ["email", "role"] });
  revalidatePath("/settings/members");
  const { email, role, temporaryPassword, invited } = result.data;
  const how = invited ? " An invitation email is on its way." : "";
  return { success: `${email} was added as ${role}.${how}`, temporaryPassword, addedEmail: email };
}

export async function changeRoleAction(_prev: FormState, form: FormData): Promise<FormState> {
  const result = await withMember((db, ctx) =>
    changeMemberRole(db, {
      workspaceId: ctx.workspace.workspaceId,
      userId: field(form, "userId"),
      role: field(form, "role") as "member",
    }),
  );
  if ("error" in result) return errorState(result);
  revalidatePath("/", "layout");
  return { success: `Role changed to ${result.data.role}.` };
}

/** Removes a member, or (for oneself) leaves the workspace and goes to another one. */
export async function removeMemberAction(_prev: FormState, form: FormData): Promise<FormState> {
  const result = await withMember((db, ctx) =>
    removeMember(db, { workspaceId: ctx.workspace.workspaceId, userId: field(form, "userId") }),
  );
  if ("error" in result) return errorState(result);
  if (result.data.left) {
    (await cookies()).delete(WORKSPACE_COOKIE);
    revalidatePath("/", "layout");
    redirect("/contacts");
  }
  revalidatePath("/settings/members");
  return { success: "Member removed." };
}
