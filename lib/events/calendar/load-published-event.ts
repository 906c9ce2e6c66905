import type { Db } from "@/lib/db/doors";
import type { EventRow } from "../event-row";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A published event by id (any workspace: the id is the public handle), or null. */
export async function loadPublishedEvent(db: Db, eventId: string): Promise<EventRow | null> {
  if (!UUID.test(eventId)) return null;
  const [event] = await db<EventRow[]>`select * from public.events where id = ${eventId} and is_published`;
  return event ?? null;
}
