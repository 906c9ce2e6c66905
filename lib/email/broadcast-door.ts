import { asService, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";

/**
 * The one way a broadcast is written (docs/decisions.md, "The database is the boundary"): members
 * only read public.broadcasts, so a direct write cannot skip the composer (body_html), the state
 * machine or the scheduled job. The caller is checked as themself first, in the same transaction:
 * a member of the workspace, or the service itself (the worker, the service door's actions). Then
 * `write` runs as the service, RLS bypassed: each of its statements names the workspace.
 */
export async function writeBroadcast<T>(db: Db, workspaceId: string, write: () => Promise<T>): Promise<T> {
  const [{ allowed }] = await db<{ allowed: boolean }[]>`
    select current_setting('role') = 'service_role' or public.is_workspace_member(${workspaceId}) as allowed`;
  if (!allowed) throw new AppError("not_found", "Broadcast not found.");
  return asService(db, write);
}
