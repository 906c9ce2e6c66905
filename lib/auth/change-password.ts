import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { recordAudit } from "@/lib/audit/record-audit";
import { hashPassword, passwordMatches } from "./local-provider";

export const CURRENT_PASSWORD_WRONG = "Your current password is not correct.";

/**
 * A signed-in user changes their password (local provider): the current one is required,
 * and every other session ends (session_version is raised; the caller reissues its own
 * session with the new version).
 */
export async function changePassword(
  db: Db,
  input: { userId: string; currentPassword: string; newPassword: string },
): Promise<Result<{ sessionVersion: number; email: string }>> {
  const [user] = await db`select encrypted_password from auth.users where id = ${input.userId}`;
  if (!(await passwordMatches(input.currentPassword, user?.encrypted_password)))
    return refused("invalid", CURRENT_PASSWORD_WRONG, { field: "currentPassword" });
  const hash = await hashPassword(input.newPassword);
  const [updated] = await db`
    update auth.users set encrypted_password = ${hash}, session_version = session_version + 1, updated_at = now()
    where id = ${input.userId}
    returning session_version, email`;
  return { data: { sessionVersion: updated.session_version, email: updated.email } };
}

/** "Sign out everywhere": every session of the account, this one included, stops working. */
export async function signOutEverywhere(db: Db, input: { userId: string }): Promise<void> {
  await db`update auth.users set session_version = session_version + 1, updated_at = now() where id = ${input.userId}`;
}

/** The account's current session version and email, to reissue this browser's session after a change. */
export async function accountSession(
  db: Db,
  input: { userId: string },
): Promise<{ sessionVersion: number; email: string } | null> {
  const [row] = await db`select session_version, email from auth.users where id = ${input.userId}`;
  return row ? { sessionVersion: row.session_version, email: row.email } : null;
}

/**
 * A password changed without the workspace at hand (a reset link): one audit row in each
 * workspace of the account, so every workspace's owners see it, as for a change.
 */
export async function auditPasswordReset(
  db: Db,
  input: { userId: string; email: string; ip: string | null; via: "reset link" | "recovery link" },
): Promise<void> {
  const workspaces = await db<{ workspace_id: string }[]>`
    select workspace_id from public.workspace_members where user_id = ${input.userId}`;
  for (const { workspace_id } of workspaces)
    await recordAudit(db, {
      workspaceId: workspace_id,
      actorId: input.userId,
      actorEmail: input.email,
      action: "account.password_reset",
      targetType: "user",
      targetId: input.userId,
      after: { via: input.via },
      ip: input.ip,
    });
}
