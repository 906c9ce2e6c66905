import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { listBroadcasts } from "@/lib/email/broadcasts";

export const metadata: Metadata = { title: "Broadcasts" };

export default async function BroadcastsPage() {
  const ctx = await requireMember();
  const rows = await withUser(ctx.claims, (db) => listBroadcasts(db, ctx.workspace.workspaceId));
  return (
    <div className="stack">
      <div className="topbar">
        <h1>Broadcasts</h1>
        <Link className="button" href="/broadcasts/new">
          New broadcast
        </Link>
      </div>
      {rows.length === 0 ? (
        <div className="card empty">No broadcasts yet.</div>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Subject</th>
              <th scope="col">Status</th>
              <th scope="col">Sent</th>
              <th scope="col">Skipped</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((b) => (
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
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}
