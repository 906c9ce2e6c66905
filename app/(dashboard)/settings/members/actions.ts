"use server";

import { cookies } from "next/headers";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { withMember } from "@/lib/auth/context";
import { WORKSPACE_COOKIE } from "@/lib/auth/session";
import { errorState, type FormState } from "@/lib/http/form-state";
import { changeMemberRole } from "@/lib/workspaces/change-member-role";
import { inviteMember } from "@/lib/workspaces/invite-member";
import { resendInvitation, revokeInvitation } from "@/lib/workspaces/manage-invitation";
import { removeMember } from "@/lib/workspaces/remove-member";

const field = (form: FormData, name: string) => String(form.get(name) ?? "");

/** Issue 13: adding a member sends an invitation; they join when they accept it. */
export async function inviteMemberAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = { email: field(form, "email"), role: field(form, "role") };
  const result = await withMember((db, ctx) =>
    inviteMember(db, {
      workspaceId: ctx.workspace.workspaceId,
      email: values.email,
      role: values.role as "member",
    }),
  );
  if ("error" in result) return errorState(result, { values, fields: ["email", "role"] });
  revalidatePath("/settings/members");
  const { email, role } = result.data;
  return { success: `An invitation to join as ${role} was sent to ${email}. They join when they accept it.` };
}

export async function resendInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  const result = await withMember((db, ctx) =>
    resendInvitation(db, {
      workspaceId: ctx.workspace.workspaceId,
      invitationId: field(form, "invitationId"),
    }),
  );
  if ("error" in result) return errorState(result);
  revalidatePath("/settings/members");
  return { success: `The invitation was sent to ${result.data.email} again.` };
}

export async function revokeInvitationAction(_prev: FormState, form: FormData): Promise<FormState> {
  const result = await withMember((db, ctx) =>
    revokeInvitation(db, {
      workspaceId: ctx.workspace.workspaceId,
      invitationId: field(form, "invitationId"),
    }),
  );
  if ("error" in result) return errorState(result);
  revalidatePath("/settings/members");
  return { success: `The invitation to ${result.data.email} was revoked.` };
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
