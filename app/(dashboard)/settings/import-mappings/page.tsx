import type { Metadata } from "next";
import Link from "next/link";
import { ConfirmAction } from "@/components/confirm-action";
import { ACTIONS_COLUMN, DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import {
  listSavedMappings,
  SAVED_MAPPINGS_SHOWN,
  type SavedMapping,
} from "@/lib/contacts/import/saved-mappings";
import { withReadUser } from "@/lib/db/doors";
import { deleteImportMappingAction } from "./actions";

export const metadata: Metadata = { title: "Import mappings" };

/** A mapping's name: its first headers (a mapping is saved under its headers, it has no name of its own). */
function mappingName(m: SavedMapping): string {
  const first = m.columns.slice(0, 3).map((c) => c.header);
  const more = m.columns.length - first.length;
  return first.join(", ") + (more > 0 ? ` and ${more} more` : "");
}

/**
 * Settings → Import mappings (docs/decisions.md, "CSV import mappings"): the column mappings CSV
 * imports saved, proposed again for a file with the same headers. Members see them; owners and
 * admins delete one (the next such file is matched by name until an import saves a mapping again).
 */
export default async function ImportMappingsPage() {
  const ctx = await requireMember();
  const mappings = await withReadUser(ctx.claims, (db) => listSavedMappings(db, ctx.workspace.workspaceId));
  const admin = ADMIN_ROLES.includes(ctx.workspace.role);
  return (
    <>
      <h1>Import mappings</h1>
      <p>
        Each <Link href="/contacts/import">CSV import</Link> saves what its columns became, and proposes it
        again for a file with the same headers, in any order.
        {mappings.length >= SAVED_MAPPINGS_SHOWN &&
          ` The ${SAVED_MAPPINGS_SHOWN} most recently used are shown.`}
      </p>
      {!admin && <p className="hint">Only owners and admins can delete import mappings.</p>}
      <DataTable
        rows={mappings}
        columns={["Mapping", "Columns", "Last used", "Saved by", ...(admin ? [ACTIONS_COLUMN] : [])]}
        caption="Saved import mappings, most recently used first"
        empty="No saved mappings yet: the first CSV import saves one."
        testId="import-mappings"
      >
        {(m) => (
          <tr key={m.id}>
            <td>{mappingName(m)}</td>
            <td>
              <ul style={{ listStyle: "none", padding: 0, margin: 0 }}>
                {m.columns.map((c, i) => (
                  <li key={i}>
                    {c.header} → <span className="muted">{c.target}</span>
                  </li>
                ))}
              </ul>
            </td>
            <td>
              <DateTime value={m.lastUsedAt} timeZone={ctx.timeZone} />
            </td>
            <td>{m.savedBy ?? "Not recorded"}</td>
            {admin && (
              <td>
                <ConfirmAction
                  action={deleteImportMappingAction}
                  fields={{ mappingId: m.id }}
                  label="Delete"
                  accessibleName={`Delete the mapping ${mappingName(m)}`}
                  title={`Delete the mapping ${mappingName(m)}?`}
                  body="A file with these headers is then matched by name until an import saves a mapping again."
                  confirmLabel="Delete mapping"
                />
              </td>
            )}
          </tr>
        )}
      </DataTable>
    </>
  );
}
