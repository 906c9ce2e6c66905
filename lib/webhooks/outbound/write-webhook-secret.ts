import { asServiceForMember, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";

/**
 * The one way an endpoint's signing secret is written (docs/decisions.md, "One delivery's failure is
 * its own"): members hold no INSERT on webhook_endpoints and no UPDATE of secret_ciphertext, so a
 * direct write cannot store a ciphertext the worker cannot open. `write` runs as the service once the
 * caller is checked as a member of the workspace (the admin role is the action's and the key scope's
 * check), or is the service itself (REST v1). Each of its statements names the workspace.
 */
export function writeWebhookSecret<T>(db: Db, workspaceId: string, write: () => Promise<T>): Promise<T> {
  return asServiceForMember(
    db,
    workspaceId,
    () => new AppError("not_found", "This endpoint does not exist or you cannot change it."),
    write,
  );
}
