import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { eventColumns } from "./create-event";
import type { EventRow } from "./event-row";
import type { EventFormInput, LinkedEventFormInput } from "./schemas";
import { sanitizeRichText } from "@/lib/html/sanitize";
import { checkEventCapacity } from "./ticket-types/ticket-types";
import { releaseSeats } from "./waitlist/offers";

/**
 * Edits an event. A manual event takes the whole form; a ticketing-linked one only its
 * publish toggle, website title and description and capacity, because the sync owns the rest.
 * A capacity below the seats taken is refused with the numbers; a capacity raised offers the new
 * seats to the waitlist (docs/decisions.md, "A waitlist that fills itself").
 */
export async function updateEvent(
  db: Db,
  input: { workspaceId: string; eventId: string; event: EventFormInput | LinkedEventFormInput },
): Promise<Result<EventRow>> {
  const [current] = await db`
    select external_event_id from public.events
    where id = ${input.eventId} and workspace_id = ${input.workspaceId} for update`;
  if (!current) return refused("not_found", "This event does not exist.");
  const columns =
    current.external_event_id || !("name" in input.event)
      ? {
          is_published: input.event.is_published,
          website_title: input.event.website_title,
          website_description: sanitizeRichText(input.event.website_description),
          capacity: input.event.capacity,
        }
      : eventColumns(input.event);
  const capacity = await checkEventCapacity(db, { eventId: input.eventId, capacity: columns.capacity });
  if ("error" in capacity) return capacity;
  const [event] = await db<EventRow[]>`
    update public.events set ${db(columns)}
    where id = ${input.eventId} and workspace_id = ${input.workspaceId} returning *`;
  if (!event) return refused("forbidden", "You cannot change this event.");
  if (capacity.data.raised) await releaseSeats(db, { eventId: event.id });
  return { data: event };
}
