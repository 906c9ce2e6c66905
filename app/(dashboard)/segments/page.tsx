import type { Metadata } from "next";
import Link from "next/link";
import { DateTime } from "@/components/ui/date-time";
import { requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { listSegments } from "@/lib/segments/get-segment";

export const metadata: Metadata = { title: "Segments" };

/** The workspace's saved segments (docs/decisions.md, "Segments"); each page shows its live count. */
export default async function SegmentsPage({
  searchParams,
}: {
  searchParams: Promise<{ deleted?: string }>;
}) {
  const ctx = await requireMember();
  const sp = await searchParams;
  const segments = await withReadUser(ctx.claims, (db) =>
    listSegments(db, { workspaceId: ctx.workspace.workspaceId }),
  );
  return (
    <>
      <div className="topbar">
        <h1>Segments</h1>
        <Link href="/segments/new" className="button">
          New segment
        </Link>
      </div>
      <div role="status" aria-live="polite">
        {sp.deleted === "1" && <div className="alert success">The segment was deleted.</div>}
      </div>
      {segments.length === 0 ? (
        <div className="card empty">
          No segments yet. A segment is a saved filter of your contacts: tags, consent, purchases, forms,
          events and email engagement. Broadcasts can target one.
        </div>
      ) : (
        <ul className="card stack" aria-label="Segments">
          {segments.map((s) => (
            <li key={s.id}>
              <Link href={`/segments/${s.id}`}>{s.name}</Link>{" "}
              <span className="hint">
                changed <DateTime value={s.updated_at} timeZone={ctx.timeZone} />
              </span>
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
