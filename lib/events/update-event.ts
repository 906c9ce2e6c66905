import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { eventColumns } from "./create-event";
import type { EventRow } from "./event-row";
import type { EventFormInput, LinkedEventFormInput } from "./schemas";
import { sanitizeRichText } from "@/lib/html/sanitize";

/**
 * Edits an event. A manual event takes the whole form; a ticketing-linked one only its
 * publish toggle, website title and description and capacity, because the sync owns the rest.
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
  const [event] = await db<EventRow[]>`
    update public.events set ${db(columns)}
    where id = ${input.eventId} and workspace_id = ${input.workspaceId} returning *`;
  if (!event) return refused("forbidden", "You cannot change this event.");
  return { data: event };
}
