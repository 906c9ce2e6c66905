import { asServiceForMember, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";

/**
 * The one way a contact's consent is written (docs/decisions.md, "The database is the boundary";
 * spec 3.3): a member may not change the consent columns of public.contacts nor delete an
 * 'unsubscribe' or 'bounce' suppression (public.contacts_guard_consent_update, the suppressions' policy),
 * so a direct REST write cannot skip the consent rules and the ledger. `write` runs as the service
 * once the caller is checked as a member of the workspace (asServiceForMember), with auth.uid()
 * still naming them as creator or modifier.
 */
export function writeConsent<T>(db: Db, workspaceId: string, write: () => Promise<T>): Promise<T> {
  return asServiceForMember(db, workspaceId, () => new AppError("not_found", "Contact not found."), write);
}
