import type { Db } from "@/lib/db/doors";
import { refused } from "@/lib/errors/app-error";
import { callerRole, isAdmin } from "./member-permissions";
import { invalid, renameWorkspaceSchema, type Result } from "./schemas";

export const RENAME_FORBIDDEN = "Only owners and admins can change the workspace name.";

/** Settings: Admin+ change the workspace's name (RLS workspaces_update holds the same line). */
export async function renameWorkspace(
  db: Db,
  input: { workspaceId: string; name: string },
): Promise<Result<{ name: string }>> {
  const parsed = renameWorkspaceSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const { workspaceId, name } = parsed.data;
  if (!isAdmin(await callerRole(db, workspaceId))) return refused("forbidden", RENAME_FORBIDDEN);
  const updated =
    await db`update public.workspaces set name = ${name} where id = ${workspaceId} returning id`;
  if (updated.length === 0) return refused("forbidden", RENAME_FORBIDDEN);
  return { data: { name } };
}
