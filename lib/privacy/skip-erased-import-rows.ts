import type { Db } from "@/lib/db/doors";
import type { ImportRowError } from "@/lib/contacts/import/import-report";
import { erasedMessage } from "./erased-addresses";

/**
 * The erasure rule for CSV imports (docs/decisions.md, "Privacy requests"): a staged row whose address was
 * erased from the workspace, and that no contact holds again, is taken out of the import and reported
 * ("this address was erased on …"), so an old list never silently re-creates the person or
 * their marketing consent. Once the person came back on their own (a form, an RSVP) their
 * contact exists again and an import updates it like any other. Costs nothing in a workspace
 * that never erased anyone.
 */
export async function skipErasedImportRows(db: Db, workspaceId: string): Promise<ImportRowError[]> {
  const rows = await db<{ row_number: number; email: string; erased_at: Date }[]>`
    with gone as (
      delete from contact_import_rows r
      using public.erased_addresses e
      where exists (select 1 from public.erased_addresses x where x.workspace_id = ${workspaceId})
        and e.workspace_id = ${workspaceId}
        and e.address_hash = public.erased_address_hash(${workspaceId}, r.email)
        and not exists (select 1 from public.contacts c where c.workspace_id = ${workspaceId} and c.email = r.email)
      returning r.row_number, r.email, e.erased_at
    )
    select * from gone order by row_number`;
  return rows.map((r) => ({ row: r.row_number, email: r.email, reason: erasedMessage(r.erased_at) }));
}
