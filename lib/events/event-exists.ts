import type { Db } from "@/lib/db/doors";

/** Whether the event is one of the workspace's (ids from a URL are checked before use). */
export async function eventExists(db: Db, input: { workspaceId: string; eventId: string }): Promise<boolean> {
  const [event] = await db`
    select 1 from public.events where id = ${input.eventId} and workspace_id = ${input.workspaceId}`;
  return Boolean(event);
}
