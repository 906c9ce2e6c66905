import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { PageHeader } from "@/components/ui/section";
import { requireMember } from "@/lib/auth/context";
import { listCampaigns } from "@/lib/campaigns/campaigns";
import { withReadUser } from "@/lib/db/doors";

export const metadata: Metadata = { title: "Campaigns" };

/** The workspace's campaigns with their status and enrollments per state (DESIGN section 9). */
export default async function CampaignsPage() {
  const ctx = await requireMember();
  const rows = await withReadUser(ctx.claims, (db) =>
    listCampaigns(db, { workspaceId: ctx.workspace.workspaceId }),
  );
  return (
    <div className="stack">
      <PageHeader
        title="Campaigns"
        create={rows.length > 0 && { href: "/campaigns/new", label: "New campaign" }}
      />
      <DataTable
        rows={rows}
        columns={["Name", "Status", "Active", "Completed", "Cancelled", "Exited", "Created"]}
        caption="Campaigns and their enrollments by state"
        testId="campaigns-table"
        empty={
          <div className="stack" style={{ alignItems: "center" }}>
            <p>
              No campaigns yet. A campaign sends emails, waits and branches for each contact enrolled in it.
            </p>
            <Link className="button" href="/campaigns/new">
              New campaign
            </Link>
          </div>
        }
      >
        {(c) => (
          <tr key={c.id}>
            <td>
              <Link href={`/campaigns/${c.id}`}>{c.name}</Link>
            </td>
            <td>
              <span className="badge">{c.status}</span>
            </td>
            <td>{c.counts.active}</td>
            <td>{c.counts.completed}</td>
            <td>{c.counts.cancelled}</td>
            <td>{c.counts.exited}</td>
            <td>
              <DateTime value={c.created_at} timeZone={ctx.timeZone} />
            </td>
          </tr>
        )}
      </DataTable>
    </div>
  );
}
