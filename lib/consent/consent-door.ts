import { thenRestore, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";

/**
 * The one way a contact's consent is written (docs/decisions.md, "The database is the boundary";
 * spec 3.3): a member may not change the consent columns of public.contacts nor delete an
 * 'unsubscribe' or 'bounce' suppression (public.contacts_guard_consent, the suppressions' policy),
 * so a direct REST write cannot skip the consent rules and the ledger. A member is checked as
 * themself, in the statement that switches the transaction to service_role: `write` then runs with
 * RLS bypassed (each of its statements names the workspace) and the member's claims kept, so that
 * auth.uid() still records them as creator or modifier; then their role comes back. The service (or
 * any role the database does not hand to callers) writes directly.
 */
export async function writeConsent<T>(db: Db, workspaceId: string, write: () => Promise<T>): Promise<T> {
  const [{ was, switched }] = await db<{ was: string; switched: string | null }[]>`
    select s.was,
           case when s.was not in ('authenticated', 'anon') then s.was
                when public.is_workspace_member(${workspaceId}) then set_config('role', 'service_role', true)
           end as switched
    from (select current_setting('role') as was offset 0) s`;
  if (switched === null) throw new AppError("not_found", "Contact not found.");
  if (switched === was) return write();
  return thenRestore(write, () => db`select set_config('role', ${was}, true)`);
}
