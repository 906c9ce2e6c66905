import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { listBroadcasts } from "@/lib/email/broadcasts";
import { DataTable } from "@/components/ui/data-table";
import { PageHeader } from "@/components/ui/section";

export const metadata: Metadata = { title: "Broadcasts" };

export default async function BroadcastsPage() {
  const ctx = await requireMember();
  const rows = await withReadUser(ctx.claims, (db) => listBroadcasts(db, ctx.workspace.workspaceId));
  return (
    <div className="stack">
      <PageHeader title="Broadcasts" create={{ href: "/broadcasts/new", label: "New broadcast" }} />
      <DataTable
        rows={rows}
        columns={["Subject", "Status", "Sent", "Skipped", "Created"]}
        empty="No broadcasts yet."
      >
        {(b) => (
          <tr key={b.id}>
            <td>
              <Link href={`/broadcasts/${b.id}`}>{b.subject}</Link>
            </td>
            <td>{b.status}</td>
            <td>{b.sent}</td>
            <td>{b.skipped}</td>
            <td>
              <DateTime value={b.created_at} timeZone={ctx.timeZone} />
            </td>
          </tr>
        )}
      </DataTable>
    </div>
  );
}
