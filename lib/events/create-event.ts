import type { Db } from "@/lib/db/doors";
import type { EventRow } from "./event-row";
import type { EventFormInput } from "./schemas";
import { sanitizeRichText } from "@/lib/html/sanitize";
import { zonedInputToUtc } from "@/lib/time/format";

/** The columns a manual event's form writes: HTML sanitised, wall-clock times to UTC. */
export function eventColumns(input: EventFormInput) {
  return {
    name: input.name,
    description: sanitizeRichText(input.description),
    location: input.online ? "Online" : input.location,
    start_time: zonedInputToUtc(input.start, input.timezone),
    end_time: zonedInputToUtc(input.end, input.timezone),
    timezone: input.timezone,
    is_published: input.is_published,
    website_title: input.website_title,
    website_description: sanitizeRichText(input.website_description),
    capacity: input.capacity,
    waitlist_enabled: input.waitlist_enabled,
    offer_hours: input.offer_hours,
  };
}

/** A manual event (spec 2.7). Owners and admins only: the RLS policy refuses members. */
export async function createEvent(
  db: Db,
  input: { workspaceId: string; event: EventFormInput },
): Promise<{ data: EventRow }> {
  const row = { ...eventColumns(input.event), workspace_id: input.workspaceId };
  const [event] = await db<EventRow[]>`insert into public.events ${db(row)} returning *`;
  return { data: event };
}
