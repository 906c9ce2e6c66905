import type { Db } from "@/lib/db/doors";

export interface NotificationInput {
  workspaceId: string;
  /** null: for every member of the workspace */
  userId?: string | null;
  contactId?: string | null;
  type: string;
  title: string;
  body?: string;
  actionUrl?: string;
  actionLabel?: string;
}

/** A dashboard notification (spec 6.3). `actionUrl` is a path inside the app, never an outside address. */
export async function createNotification(db: Db, input: NotificationInput): Promise<{ id: string }> {
  if (input.actionUrl && !input.actionUrl.startsWith("/")) throw new Error("actionUrl must be an app path");
  const [row] = await db`
    insert into public.notifications (workspace_id, user_id, contact_id, type, title, body, action_url, action_label)
    values (${input.workspaceId}, ${input.userId ?? null}, ${input.contactId ?? null}, ${input.type}, ${input.title},
            ${input.body ?? ""}, ${input.actionUrl ?? null}, ${input.actionLabel ?? null})
    returning id`;
  return { id: row.id };
}
