import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { requireMember } from "@/lib/auth/context";
import { auditLogFilter, auditLogQueryString, parseAuditLogQuery } from "@/lib/audit/audit-log-query";
import { describeChange } from "@/lib/audit/audit-summary";
import { listAuditLog } from "@/lib/audit/list-audit-log";
import { withReadUser } from "@/lib/db/doors";
import { listMembers } from "@/lib/workspaces/list-members";
import { AuditLogFilters } from "@/components/audit/audit-log-filters";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";

export const metadata: Metadata = { title: "Audit log" };

/**
 * docs/decisions.md, "Audit log": every action a member took that changed data or access in this workspace,
 * newest first, with filters, keyset pages and a CSV export. Owners only: anyone else gets the same
 * not-found as any page that is not theirs (and RLS gives them no rows anyway).
 */
export default async function AuditLogPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const ctx = await requireMember();
  if (ctx.workspace.role !== "owner") notFound();
  const query = parseAuditLogQuery(await searchParams);
  const workspaceId = ctx.workspace.workspaceId;
  const zone = ctx.timeZone;
  const [page, members] = await withReadUser(ctx.claims, (db) =>
    Promise.all([
      listAuditLog(db, auditLogFilter(query, { workspaceId, timeZone: zone })),
      listMembers(db, { workspaceId }),
    ]),
  );
  const filtered = Object.entries(query).some(([key, value]) => key !== "before" && value);
  const filters = auditLogQueryString(query);
  return (
    <>
      <p>
        <Link href="/settings">← Settings</Link>
      </p>
      <h1>Audit log</h1>
      <p className="hint">
        Every change to data or access made by a member of this workspace, with who, what, when and from
        where. Entries cannot be changed or deleted. Secrets and contacts&apos; personal details are never
        written here: a changed email reads &quot;[changed]&quot;.
      </p>
      <AuditLogFilters
        query={query}
        members={"data" in members ? members.data : []}
        timeZone={zone}
        exportHref={`/api/audit/export${filters ? `?${filters}` : ""}`}
      />
      <DataTable
        rows={page.rows}
        columns={["Time", "Member", "Action", "Target", "Change", "IP"]}
        caption="Audited actions, newest first"
        empty={filtered ? "No audited action matches these filters." : "No audited actions yet."}
      >
        {(row) => (
          <tr key={row.id} data-testid="audit-row">
            <td>
              <DateTime value={row.created_at} timeZone={zone} />
            </td>
            <td>
              {row.actor_email ?? (row.actor_api_key_name ? `API key: ${row.actor_api_key_name}` : "—")}
            </td>
            <td>
              <code>{row.action}</code>
            </td>
            <td>
              {row.target_type}
              {row.target_id && (
                <div className="hint">
                  <code>{row.target_id}</code>
                </div>
              )}
            </td>
            <td>
              {describeChange(row.before, row.after).map((line, i) => (
                <div key={i}>{line}</div>
              ))}
            </td>
            <td>{row.ip ?? "—"}</td>
          </tr>
        )}
      </DataTable>
      <nav aria-label="Pages" className="row">
        {query.before && <Link href={`/settings/audit${filters ? `?${filters}` : ""}`}>← Newest</Link>}
        {page.older && (
          <Link href={`/settings/audit?${auditLogQueryString(query, page.older)}`}>Older →</Link>
        )}
      </nav>
    </>
  );
}
