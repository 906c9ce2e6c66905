import { z } from "zod";
import { refused, type Refused } from "@/lib/errors/app-error";
import { emailSchema } from "@/lib/auth/schemas";
import { uuidField } from "@/lib/ids/uuid";

export const ROLES = ["owner", "admin", "member"] as const;

export const roleSchema = z.enum(ROLES, { error: "Choose a role: owner, admin or member." });

const workspaceId = uuidField("Unknown workspace.");
const userId = uuidField("Unknown member.");

export const workspaceNameSchema = z
  .string({ error: "Name your workspace." })
  .trim()
  .min(1, "Name your workspace.")
  .max(200, "That name is too long.");

export const inviteMemberSchema = z.object({ workspaceId, email: emailSchema, role: roleSchema });
export const invitationIdSchema = z.object({
  workspaceId,
  invitationId: uuidField("Unknown invitation."),
});
export const changeMemberRoleSchema = z.object({ workspaceId, userId, role: roleSchema });
export const removeMemberSchema = z.object({ workspaceId, userId });
export const listMembersSchema = z.object({ workspaceId });
export const createWorkspaceSchema = z.object({ name: workspaceNameSchema });
export const renameWorkspaceSchema = z.object({ workspaceId, name: workspaceNameSchema });

export type InviteMemberInput = z.input<typeof inviteMemberSchema>;
export type ChangeMemberRoleInput = z.input<typeof changeMemberRoleSchema>;
export type RemoveMemberInput = z.input<typeof removeMemberSchema>;

/** What every operation here returns: its data, or a refusal (an AppError) a person can act on. */
export type { Result } from "@/lib/errors/app-error";

/** The first problem zod found, as an `invalid` refusal naming its field. */
export function invalid(error: z.ZodError): Refused {
  const issue = error.issues[0];
  return refused("invalid", issue.message, {
    field: issue.path[0] === undefined ? undefined : String(issue.path[0]),
  });
}
