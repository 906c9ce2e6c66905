import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import type { EventRow } from "../event-row";

/** A published event by id (any workspace: the id is the public handle), or null. */
export async function loadPublishedEvent(db: Db, eventId: string): Promise<EventRow | null> {
  if (!isUuid(eventId)) return null;
  const [event] = await db<EventRow[]>`select * from public.events where id = ${eventId} and is_published`;
  return event ?? null;
}
