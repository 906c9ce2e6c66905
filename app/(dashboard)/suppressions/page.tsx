import type { Metadata } from "next";
import Link from "next/link";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { PageHeader } from "@/components/ui/section";
import { requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { getBroadcast } from "@/lib/email/broadcasts";
import { listSuppressions } from "@/lib/email/broadcast-suppressions";

export const metadata: Metadata = { title: "Suppressions" };

const REASONS = ["bounce", "complaint", "unsubscribe", "manual"] as const;
const LIMIT = 200;

/**
 * Spec 2.6 and 6.1: the workspace's suppressions, newest first, filtered by `?reason=` and by
 * `?broadcast=` (those one broadcast's bounces and complaints caused, linked from its report).
 * Each row links to its contact, where a suppression is removed or added (spec 3.3).
 */
export default async function SuppressionsPage({
  searchParams,
}: {
  searchParams: Promise<{ reason?: string; broadcast?: string }>;
}) {
  const ctx = await requireMember();
  const sp = await searchParams;
  const workspaceId = ctx.workspace.workspaceId;
  const reason = REASONS.find((r) => r === sp.reason);
  const [rows, broadcast] = await withReadUser(ctx.claims, async (db) => [
    await listSuppressions(db, { workspaceId, reason, broadcastId: sp.broadcast, limit: LIMIT }),
    sp.broadcast ? await getBroadcast(db, { workspaceId, broadcastId: sp.broadcast }) : null,
  ]);
  const query = (r?: string) =>
    `/suppressions?${new URLSearchParams({ ...(r ? { reason: r } : {}), ...(sp.broadcast ? { broadcast: sp.broadcast } : {}) })}`;
  return (
    <div className="stack">
      <PageHeader title="Suppressions" />
      {sp.broadcast && (
        <p data-testid="suppressions-broadcast">
          {broadcast ? (
            <>
              Caused by the bounces and complaints of the broadcast{" "}
              <Link href={`/broadcasts/${broadcast.id}`}>{broadcast.subject}</Link>.{" "}
            </>
          ) : (
            "No such broadcast in this workspace. "
          )}
          <Link href={`/suppressions${reason ? `?reason=${reason}` : ""}`}>Show every broadcast&apos;s</Link>
        </p>
      )}
      <nav aria-label="Reason" className="row">
        <Link href={query()} aria-current={reason ? undefined : "page"}>
          All
        </Link>
        {REASONS.map((r) => (
          <Link key={r} href={query(r)} aria-current={reason === r ? "page" : undefined}>
            {r}
          </Link>
        ))}
      </nav>
      <DataTable
        rows={rows}
        columns={["Contact", "Reason", "Since"]}
        caption={`Suppressions${reason ? ` (${reason})` : ""}, newest first${rows.length === LIMIT ? `, the latest ${LIMIT}` : ""}`}
        empty="No suppressions."
        testId="suppressions"
      >
        {(s) => (
          <tr key={s.id}>
            <td>
              <Link href={`/contacts/${s.contact_id}`}>{s.email}</Link>
            </td>
            <td>{s.reason}</td>
            <td>
              <DateTime value={s.created_at} timeZone={ctx.timeZone} />
            </td>
          </tr>
        )}
      </DataTable>
    </div>
  );
}
