import { asServiceForMember, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";

/** The refusal of a caller who may not change the endpoint (or of an endpoint that does not exist). */
export const ENDPOINT_NOT_FOUND = "This endpoint does not exist or you cannot change it.";

/**
 * The one way webhook endpoints are written, the service path (docs/decisions.md, "One delivery's failure
 * is its own"; "The second factor holds at the database"): members hold no INSERT, UPDATE or DELETE on
 * webhook_endpoints, so no direct write stores a ciphertext the worker cannot open, or re-points or
 * removes an endpoint without the app's step-up and audit row. `write` runs as the service once the
 * caller is checked, in the statement that switches, as an owner or admin of the workspace at the
 * assurance level it requires; or the caller is the service itself (REST v1, whose key scope is the
 * check). Each of its statements names the workspace.
 */
export function writeWebhookEndpoint<T>(db: Db, workspaceId: string, write: () => Promise<T>): Promise<T> {
  return asServiceForMember(db, workspaceId, () => new AppError("not_found", ENDPOINT_NOT_FOUND), write, [
    "owner",
    "admin",
  ]);
}
