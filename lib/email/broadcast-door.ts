import { asServiceForMember, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";

/**
 * The one way a broadcast is written (docs/decisions.md, "The database is the boundary"): members
 * only read public.broadcasts, so a direct write cannot skip the composer (body_html), the state
 * machine or the scheduled job. `write` runs as the service once the caller is checked as a member
 * of the workspace, or is the service itself (the worker, the service door's actions):
 * asServiceForMember. Each of its statements names the workspace.
 */
export function writeBroadcast<T>(db: Db, workspaceId: string, write: () => Promise<T>): Promise<T> {
  return asServiceForMember(db, workspaceId, () => new AppError("not_found", "Broadcast not found."), write);
}
