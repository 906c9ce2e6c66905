import type { Db } from "@/lib/db/doors";

export interface NotificationItem {
  id: string;
  type: string;
  title: string;
  body: string;
  action_url: string | null;
  action_label: string | null;
  created_at: Date;
  read: boolean;
}

/**
 * The signed-in member's notifications in one workspace (the workspace-wide ones and their own;
 * RLS decides which), newest first, each with the member's own read state.
 */
export async function listNotifications(
  db: Db,
  input: { workspaceId: string; userId: string; limit?: number; offset?: number },
): Promise<NotificationItem[]> {
  return db<NotificationItem[]>`
    select n.id, n.type, n.title, n.body, n.action_url, n.action_label, n.created_at,
           exists (select 1 from public.notification_reads r
                   where r.notification_id = n.id and r.user_id = ${input.userId}) as read
    from public.notifications n
    where n.workspace_id = ${input.workspaceId}
      and (n.user_id is null or n.user_id = ${input.userId})
    order by n.created_at desc, n.id
    limit ${input.limit ?? 100} offset ${input.offset ?? 0}`;
}

/** How many notifications the member has in the workspace, and how many of them they have not read: one statement. */
export async function notificationCounts(
  db: Db,
  input: { workspaceId: string; userId: string },
): Promise<{ total: number; unread: number }> {
  const [row] = await db<{ total: number; unread: number }[]>`
    select count(*)::int as total,
           count(*) filter (where not exists (
             select 1 from public.notification_reads r
             where r.notification_id = n.id and r.user_id = ${input.userId}))::int as unread
    from public.notifications n
    where n.workspace_id = ${input.workspaceId}
      and (n.user_id is null or n.user_id = ${input.userId})`;
  return row;
}

/** The bell's number: notifications of the workspace the member has not read. */
export async function countUnreadNotifications(
  db: Db,
  input: { workspaceId: string; userId: string },
): Promise<number> {
  return (await notificationCounts(db, input)).unread;
}
