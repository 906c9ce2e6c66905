"use server";

import { revalidatePath } from "next/cache";
import { withMember } from "@/lib/auth/context";
import { markNotificationsRead } from "@/lib/notifications/mark-notifications-read";
import { uuidSchema } from "@/lib/ids/uuid";

const idSchema = uuidSchema;

export async function markNotificationReadAction(form: FormData): Promise<void> {
  const id = idSchema.safeParse(form.get("id"));
  if (!id.success) return;
  await withMember((db, ctx) =>
    markNotificationsRead(db, { workspaceId: ctx.workspace.workspaceId, userId: ctx.userId, ids: [id.data] }),
  );
  revalidatePath("/", "layout");
}

export async function markAllNotificationsReadAction(): Promise<void> {
  await withMember((db, ctx) =>
    markNotificationsRead(db, { workspaceId: ctx.workspace.workspaceId, userId: ctx.userId }),
  );
  revalidatePath("/", "layout");
}
