import { withReadUser, type Claims } from "@/lib/db/doors";
import { auditLogCsv } from "../audit-log-csv";
import { listAuditLog, type AuditLogFilter, type AuditLogRow } from "../list-audit-log";

/** Rows read per transaction while streaming an export. */
export const EXPORT_BATCH = 1_000;

/**
 * The filtered audit log as a CSV stream (an owner's export, docs/decisions.md, "Audit log"): `first` is the
 * first batch, already read in the request's transaction; each further batch is read when the
 * client asks for more, in a short transaction of its own as the member (RLS: owners only; on
 * the read replica when there is one, lib/db/replica.ts),
 * keyset after the last row sent, so a long log never sits in memory or holds one
 * transaction open for the whole download. Rows written after the first batch are newer than
 * the cursor and are not included: the export is the log as it stood when it was asked for.
 */
export function streamAuditLogCsv(
  claims: Claims,
  filter: AuditLogFilter,
  first: { rows: AuditLogRow[]; older: string | null },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let next: string | null = first.older;
  let pending: AuditLogRow[] | null = first.rows;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          if (pending) {
            controller.enqueue(encoder.encode(auditLogCsv(pending)));
            pending = null;
          } else if (next) {
            const page = await withReadUser(claims, (db) =>
              listAuditLog(db, { ...filter, before: next!, limit: EXPORT_BATCH }),
            );
            next = page.older;
            controller.enqueue(encoder.encode(auditLogCsv(page.rows, { header: false })));
          }
          if (!pending && !next) controller.close();
        } catch (error) {
          controller.error(error);
        }
      },
    },
    { highWaterMark: 0 },
  );
}
