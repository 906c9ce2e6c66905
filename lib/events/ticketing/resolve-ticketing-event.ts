import type { Db } from "@/lib/db/doors";
import { getEvent } from "../eventbrite/client";
import { mapEvent } from "../eventbrite/map-event";
import { importEvents } from "./import-ticketing-snapshot";

/**
 * Spec 4.5 order.placed step 2: the event by external_event_id. An order for an event the
 * last sync did not see yet imports that event first (with its ticket classes).
 */
export async function resolveTicketingEvent(
  db: Db,
  input: { workspaceId: string; token: string; externalEventId: string },
): Promise<string> {
  const [known] = await db`
    select id from public.events
    where workspace_id = ${input.workspaceId} and external_event_id = ${input.externalEventId}`;
  if (known) return known.id;
  const [imported] = await importEvents(db, input.workspaceId, [
    mapEvent(await getEvent(input.token, input.externalEventId)),
  ]);
  return imported.id;
}
