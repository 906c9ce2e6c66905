"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction, type ActionContext } from "@/lib/adapters/member-action";
import { withService } from "@/lib/db/doors";
import { AppError, unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { changeMemberRole } from "@/lib/workspaces/change-member-role";
import { invitationAllowed, TOO_MANY_INVITATIONS } from "@/lib/workspaces/invitation-limits";
import { inviteMember } from "@/lib/workspaces/invite-member";
import { resendInvitation, revokeInvitation } from "@/lib/workspaces/manage-invitation";
import { removeMember } from "@/lib/workspaces/remove-member";
import type { Result } from "@/lib/workspaces/schemas";

// The domain functions check the roles (Admin+, owners for owners) and say so in their words.
const text = z.string().default("");
const refresh = () => revalidatePath("/settings/members");
/** A refusal shown as the form's message: the same code and text, beside no field. */
const fieldless = (error: AppError) =>
  new AppError(error.code, error.message, { retryAfter: error.retryAfter });
/** These forms show a refusal as their message, whatever field it names. */
const asMessage = <T>(result: Result<T>): T =>
  unwrap("error" in result ? { error: fieldless(result.error) } : result);

/** Each invitation email, new or resent, counts against the inviter's and the workspace's limits. */
async function limitInvitations(_input: unknown, ctx: ActionContext): Promise<void> {
  const allowed = await withService((db) =>
    invitationAllowed(db, { userId: ctx.userId, workspaceId: ctx.workspaceId }),
  );
  if (!allowed) throw new AppError("rate_limited", TOO_MANY_INVITATIONS);
}

/**
 * Adding a member sends an invitation (docs/decisions.md, "Invitations instead of direct adds");
 * one that makes an owner or admin needs a step-up, as a role change does.
 */
export const inviteMemberAction = memberAction(
  z.object({ email: text, role: text }),
  async (db, input, ctx): Promise<FormState> => {
    const result = await inviteMember(db, {
      workspaceId: ctx.workspaceId,
      email: input.email,
      role: input.role as "member",
    });
    // beside the field it names when the form has it (email, role), else the form's message
    const { invitationId, email, role } = unwrap(
      "error" in result && !["email", "role"].includes(result.error.field ?? "")
        ? { error: fieldless(result.error) }
        : result,
    );
    ctx.audit.target("invitation", invitationId).change(null, { role });
    return {
      success: `An invitation to join as ${role} was sent to ${email}. They join when they accept it.`,
    };
  },
  {
    audit: "member.invited",
    stepUp: (input) => input.role === "owner" || input.role === "admin",
    before: limitInvitations,
    after: refresh,
  },
);

export const resendInvitationAction = memberAction(
  z.object({ invitationId: text }),
  async (db, { invitationId }, ctx): Promise<FormState> => {
    const { email } = asMessage(await resendInvitation(db, { workspaceId: ctx.workspaceId, invitationId }));
    ctx.audit.target("invitation", invitationId);
    return { success: `The invitation was sent to ${email} again.` };
  },
  { audit: "member.invitation_resent", before: limitInvitations, after: refresh },
);

export const revokeInvitationAction = memberAction(
  z.object({ invitationId: text }),
  async (db, { invitationId }, ctx): Promise<FormState> => {
    const { email } = asMessage(await revokeInvitation(db, { workspaceId: ctx.workspaceId, invitationId }));
    ctx.audit.target("invitation", invitationId);
    return { success: `The invitation to ${email} was revoked.` };
  },
  { audit: "member.invitation_revoked", after: refresh },
);

export const changeRoleAction = memberAction(
  z.object({ userId: text, role: text }),
  async (db, input, ctx): Promise<FormState> => {
    const { userId, role } = asMessage(
      await changeMemberRole(db, {
        workspaceId: ctx.workspaceId,
        userId: input.userId,
        role: input.role as "member",
      }),
    );
    ctx.audit.target("member", userId).change(null, { role });
    return { success: `Role changed to ${role}.` };
  },
  { audit: "member.role_changed", stepUp: true, after: () => revalidatePath("/", "layout") },
);

/**
 * Removes another member, after a step-up. Leaving (oneself) is leaveWorkspaceAction: its audit
 * row has to be written before the member's access ends.
 */
export const removeMemberAction = memberAction(
  z.object({ userId: text }),
  async (db, { userId }, ctx): Promise<FormState> => {
    if (userId === ctx.userId) throw new AppError("invalid", "Use “Leave workspace” to leave it.");
    asMessage(await removeMember(db, { workspaceId: ctx.workspaceId, userId }));
    ctx.audit.target("member", userId);
    return { success: "Member removed." };
  },
  { audit: "member.removed", stepUp: true, after: refresh },
);
