import type { Db } from "@/lib/db/doors";
import type { EbEvent } from "../eventbrite/types";
import { mapEvent } from "../eventbrite/map-event";
import { importEvents } from "./import-ticketing-snapshot";

/**
 * Spec 4.5 order.placed step 2: the event by external_event_id. An order for an event the
 * last sync did not see yet imports that event first (with its ticket classes), as fetched
 * from Eventbrite before the transaction; if it was unknown then and is unknown still without
 * having been fetched, the delivery fails and is retried.
 */
export async function resolveTicketingEvent(
  db: Db,
  input: { workspaceId: string; externalEventId: string; fetched: EbEvent | null },
): Promise<string> {
  const [known] = await db`
    select id from public.events
    where workspace_id = ${input.workspaceId} and external_event_id = ${input.externalEventId}`;
  if (known) return known.id;
  if (!input.fetched)
    throw new Error(`Event ${input.externalEventId} was removed while the order was fetched.`);
  const [imported] = await importEvents(db, input.workspaceId, [mapEvent(input.fetched)]);
  return imported.id;
}
