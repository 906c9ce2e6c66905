import type { Db } from "@/lib/db/doors";
import { AppError, refused, type Result } from "@/lib/errors/app-error";
import { resolveTicket } from "./resolve-ticket";

/**
 * Check-in at the door (DESIGN section 9, "Events"; docs/decisions.md, "One check-in per
 * registration"). The unique key (workspace_id, registration_id) of event_check_ins decides: of
 * two scans of one ticket, concurrent or synced later from offline scanners, the first scan time
 * holds the row; the other is answered `already_checked_in` with the first's time and author.
 * Callers run as the service, scoped by the workspace they name.
 */
export interface CheckIn {
  id: string;
  registration_id: string;
  checked_in_at: Date;
  checked_in_by_user_id: string | null;
  checked_in_by_api_key_id: string | null;
  checked_in_by_label: string | null;
  device_id: string | null;
  source: "scanner" | "api" | "dashboard";
}

export interface CheckInAuthor {
  userId?: string | null;
  apiKeyId?: string | null;
  /** what the check-in shows as its author (the member's email, the key's name) */
  label: string | null;
  deviceId?: string | null;
  source: CheckIn["source"];
}

/** The refusals a scanner shows in words (the scanner page, the API's messages). */
export const TICKET_FORGED =
  "This ticket is not genuine: its signature does not verify (forged, altered or mistyped).";
export const TICKET_ELSEWHERE = "This ticket is not for this event.";
export const TICKET_CANCELLED = "This ticket's registration was cancelled.";

/** How far in the past an offline scan's time is taken (a scanner's queue kept longer is refused). */
const OLDEST_SCAN_MS = 7 * 24 * 3600 * 1000;

const COLUMNS = `id, registration_id, checked_in_at, checked_in_by_user_id, checked_in_by_api_key_id,
  checked_in_by_label, device_id, source`;

/** "already checked in at <time> by <who>": the refusal, carrying the first check-in. */
export function alreadyCheckedIn(first: CheckIn): AppError {
  const by = first.checked_in_by_label ? ` by ${first.checked_in_by_label}` : "";
  return new AppError(
    "already_checked_in",
    `Already checked in at ${first.checked_in_at.toISOString()}${by}.`,
    { details: { check_in: first } },
  );
}

/**
 * Records the check-in a ticket asks for at `eventId`, when it is genuine (400 `invalid`
 * otherwise), of this workspace and event (else `not_found`, as for an id of another workspace),
 * and its registration is confirmed (else `ticket_cancelled`). `scannedAt` is an offline scan's
 * time (never later than now); such a scan older than the recorded one takes the row over (the first
 * scan wins); a later or equal one is `already_checked_in`. A live scan (no `scannedAt`) never takes
 * a row over: the database's order decides, so of two doors racing, one is told "checked in" and the
 * other `already_checked_in`, whatever their clocks read.
 */
export async function checkInTicket(
  db: Db,
  input: {
    workspaceId: string;
    eventId: string;
    ticket: string;
    scannedAt?: Date | null;
    by: CheckInAuthor;
    now?: Date;
  },
): Promise<Result<{ created: boolean; checkIn: CheckIn }>> {
  const claims = await resolveTicket(db, input.ticket);
  if (!claims) return refused("invalid", TICKET_FORGED, { field: "ticket" });
  if (claims.w !== input.workspaceId || claims.e !== input.eventId.toLowerCase())
    return refused("not_found", TICKET_ELSEWHERE);
  const [registration] = await db<{ status: string }[]>`
    select status from public.event_registrations
    where workspace_id = ${claims.w} and event_id = ${claims.e} and id = ${claims.r}`;
  if (!registration) return refused("not_found", TICKET_ELSEWHERE);
  if (registration.status !== "registered") return refused("ticket_cancelled", TICKET_CANCELLED);
  const now = input.now ?? new Date();
  const scannedAt = input.scannedAt ?? now;
  if (scannedAt.getTime() < now.getTime() - OLDEST_SCAN_MS)
    return refused("invalid", "The scan is older than 7 days; scan the ticket again.", {
      field: "scanned_at",
    });
  const at = scannedAt > now ? now : scannedAt;
  const [row] = await db<(CheckIn & { inserted: boolean })[]>`
    insert into public.event_check_ins
      (workspace_id, event_id, registration_id, checked_in_at, checked_in_by_user_id,
       checked_in_by_api_key_id, checked_in_by_label, device_id, source)
    values (${claims.w}, ${claims.e}, ${claims.r}, ${at}, ${input.by.userId ?? null},
            ${input.by.apiKeyId ?? null}, ${input.by.label}, ${input.by.deviceId ?? null}, ${input.by.source})
    on conflict (workspace_id, registration_id) do update set
      checked_in_at = excluded.checked_in_at,
      recorded_at = now(),
      checked_in_by_user_id = excluded.checked_in_by_user_id,
      checked_in_by_api_key_id = excluded.checked_in_by_api_key_id,
      checked_in_by_label = excluded.checked_in_by_label,
      device_id = excluded.device_id,
      source = excluded.source
    where ${input.scannedAt != null} and excluded.checked_in_at < event_check_ins.checked_in_at
    returning ${db.unsafe(COLUMNS)}, (xmax = 0) as inserted`;
  if (row) {
    const { inserted, ...checkIn } = row;
    return { data: { created: inserted, checkIn } };
  }
  const [first] = await db<CheckIn[]>`
    select ${db.unsafe(COLUMNS)} from public.event_check_ins
    where workspace_id = ${claims.w} and registration_id = ${claims.r}`;
  return { error: alreadyCheckedIn(first) };
}

/**
 * The event page's check-in box (lib/events/check-in-registration.ts) under the same rule: a
 * check-in row for the registration now (or at the attendance a ticketing provider reported), or
 * none when one exists (the first time stays).
 */
export async function checkInRegistrationRow(
  db: Db,
  input: { workspaceId: string; registrationId: string; by: CheckInAuthor },
): Promise<void> {
  await db`
    insert into public.event_check_ins
      (workspace_id, event_id, registration_id, checked_in_at, checked_in_by_user_id, checked_in_by_label, source)
    select r.workspace_id, r.event_id, r.id, coalesce(r.checked_in_at, now()), ${input.by.userId ?? null}, ${input.by.label}, ${input.by.source}
    from public.event_registrations r
    where r.workspace_id = ${input.workspaceId} and r.id = ${input.registrationId}
    on conflict (workspace_id, registration_id) do nothing`;
}

/** The event's check-ins, newest first, and the counts the scanner and the event page show live. */
export async function eventCheckInSummary(
  db: Db,
  input: { workspaceId: string; eventId: string; limit?: number },
): Promise<{ registered: number; checkedIn: number; recent: (CheckIn & { name: string })[] }> {
  const [counts] = await db<{ registered: number; checked_in: number }[]>`
    select count(*) filter (where r.status = 'registered')::int as registered,
           count(k.id) filter (where r.status = 'registered')::int as checked_in
    from public.event_registrations r
    left join public.event_check_ins k on k.workspace_id = r.workspace_id and k.registration_id = r.id
    where r.workspace_id = ${input.workspaceId} and r.event_id = ${input.eventId}`;
  const recent = await db<(CheckIn & { name: string })[]>`
    select ${db.unsafe(COLUMNS.replace(/(\w+)/g, "k.$1"))},
           coalesce(nullif(concat_ws(' ', c.first_name, c.last_name), ''), c.email) as name
    from public.event_check_ins k
    join public.event_registrations r on r.workspace_id = k.workspace_id and r.id = k.registration_id
    join public.contacts c on c.workspace_id = r.workspace_id and c.id = r.contact_id
    where k.workspace_id = ${input.workspaceId} and k.event_id = ${input.eventId}
    order by k.checked_in_at desc, k.id
    limit ${input.limit ?? 20}`;
  return { registered: counts.registered, checkedIn: counts.checked_in, recent };
}
