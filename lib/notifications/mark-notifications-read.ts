import type { Db } from "@/lib/db/doors";

/**
 * Marks notifications read for one member (per-user read state). `ids` absent: all of the
 * workspace's notifications the member can see. One statement either way; ids the member cannot
 * see (another workspace's, another member's) are simply not matched.
 */
export async function markNotificationsRead(
  db: Db,
  input: { workspaceId: string; userId: string; ids?: string[] },
): Promise<{ marked: number }> {
  const rows = await db`
    insert into public.notification_reads (notification_id, user_id, workspace_id)
    select n.id, ${input.userId}, n.workspace_id
    from public.notifications n
    where n.workspace_id = ${input.workspaceId}
      and (n.user_id is null or n.user_id = ${input.userId})
      ${input.ids ? db`and n.id = any(${input.ids}::uuid[])` : db``}
    on conflict (notification_id, user_id) do nothing
    returning notification_id`;
  return { marked: rows.length };
}
