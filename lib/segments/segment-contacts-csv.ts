import type { Db } from "@/lib/db/doors";
import { toCsv } from "@/lib/csv/to-csv";
import { segmentCondition, segmentFields } from "./compile";
import type { SegmentFilter } from "./filter";

/** At most this many rows in one download (docs/decisions.md, "Segments"). */
export const SEGMENT_EXPORT_LIMIT = 100_000;

/**
 * A segment's contacts as CSV, newest first: the contact fields of spec 2.4 a mailing or a
 * spreadsheet needs. Formula cells are neutralised by toCsv.
 */
export async function segmentContactsCsv(
  db: Db,
  input: { workspaceId: string; filter: SegmentFilter },
): Promise<{ csv: string; rows: number }> {
  const known = await segmentFields(db, input.workspaceId, input.filter);
  const rows = await db<Record<string, string | null>[]>`
    select c.email, coalesce(c.first_name, '') as first_name, coalesce(c.last_name, '') as last_name,
           coalesce(c.phone, '') as phone, c.source,
           public.contact_email_status(c.is_subscribed, c.unsubscribed_at, c.email_suppressed) as email_status,
           coalesce(c.city, '') as city, coalesce(c.country, '') as country,
           to_char(c.created_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as created_at
    from public.contacts c
    where ${segmentCondition(db, input.workspaceId, input.filter, known)}
    order by c.created_at desc, c.id desc
    limit ${SEGMENT_EXPORT_LIMIT}`;
  const fields = [
    "email",
    "first_name",
    "last_name",
    "phone",
    "source",
    "email_status",
    "city",
    "country",
    "created_at",
  ];
  return { csv: toCsv({ fields, data: rows.map((r) => fields.map((f) => r[f] ?? "")) }), rows: rows.length };
}
