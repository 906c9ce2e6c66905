"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { uuidField } from "@/lib/ids/uuid";
import { markNotificationsRead } from "@/lib/notifications/mark-notifications-read";

const refresh = () => revalidatePath("/", "layout");

// audit: false below: read marks are the member's own view of their inbox (per-user state, like
// a read receipt), not a change to the workspace's data or to anyone's access.

export const markNotificationReadAction = memberAction(
  z.object({ id: uuidField("Not found.") }),
  async (db, input, ctx): Promise<void> => {
    await markNotificationsRead(db, { workspaceId: ctx.workspaceId, userId: ctx.userId, ids: [input.id] });
  },
  { audit: false, refusal: () => undefined, after: refresh },
);

export const markAllNotificationsReadAction = memberAction(
  z.object({}),
  async (db, _input, ctx): Promise<void> => {
    await markNotificationsRead(db, { workspaceId: ctx.workspaceId, userId: ctx.userId });
  },
  { audit: false, refusal: () => undefined, after: refresh },
);
