import { toCsv } from "@/lib/csv/to-csv";
import type { Db } from "@/lib/db/doors";
import type { EventRegistrationItem } from "./get-event-by-id";

export interface RegistrationFilter {
  workspaceId: string;
  eventId: string;
  /** case-insensitive part of the email or name */
  search?: string | null;
  status?: "registered" | "cancelled" | "waitlisted" | "offered" | null;
  /** "yes": checked in at the event; "no": not (yet) */
  checked_in?: "yes" | "no" | null;
}

/** The event's registrations (the event page and its CSV), filtered by search and status, newest first. */
export async function listEventRegistrations(
  db: Db,
  f: RegistrationFilter & {
    /** the REST API's cursor lists (docs/api.md): `limit` rows after this one's sort key */
    page?: { limit: number; after: { key: string; id: string } | null };
  },
): Promise<(EventRegistrationItem & { sort_key: string })[]> {
  const like = f.search?.trim() ? `%${f.search.trim().replace(/[\\%_]/g, (m) => `\\${m}`)}%` : null;
  const after = f.page?.after;
  return db<(EventRegistrationItem & { sort_key: string })[]>`
    select r.id, r.contact_id, c.email, c.first_name, c.last_name, r.status, r.amount_paid,
           r.external_attendee_id, r.created_at, r.checked_in_at, r.created_at::text as sort_key,
           t.name as ticket_type_name, r.waitlist_position, r.offer_expires_at
    from public.event_registrations r
    join public.contacts c on c.id = r.contact_id and c.workspace_id = r.workspace_id
    left join public.event_ticket_types t on t.id = r.ticket_type_id and t.workspace_id = r.workspace_id
    where r.workspace_id = ${f.workspaceId} and r.event_id = ${f.eventId}
      ${f.status ? db`and r.status = ${f.status}` : db``}
      ${f.checked_in ? (f.checked_in === "yes" ? db`and r.checked_in_at is not null` : db`and r.checked_in_at is null`) : db``}
      ${like ? db`and (c.email ilike ${like} or concat_ws(' ', c.first_name, c.last_name) ilike ${like})` : db``}
      ${after ? db`and (r.created_at < ${after.key}::timestamptz or (r.created_at = ${after.key}::timestamptz and r.id > ${after.id}))` : db``}
    order by r.created_at desc, r.id
    ${f.page ? db`limit ${f.page.limit + 1}` : db``}`;
}

/**
 * The registrations as CSV: formula cells neutralised by toCsv, so a name like
 * "=HYPERLINK(…)", on one line or several, stays text in a spreadsheet.
 */
export function registrationsCsv(rows: EventRegistrationItem[]): string {
  return toCsv(
    rows.map((r) => ({
      email: r.email,
      first_name: r.first_name ?? "",
      last_name: r.last_name ?? "",
      status: r.status,
      amount_paid: r.amount_paid,
      ticketing_attendee_id: r.external_attendee_id ?? "",
      registered_at: r.created_at.toISOString(),
      checked_in_at: r.checked_in_at?.toISOString() ?? "",
      ticket_type: r.ticket_type_name ?? "",
    })),
  );
}
