"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { withMember } from "@/lib/auth/context";
import type { FormState } from "@/lib/http/form-state";
import { completeTask } from "@/lib/tasks/complete-task";
import { uuidField } from "@/lib/ids/uuid";

const completeTaskForm = z.object({
  taskId: uuidField("Choose a task."),
  note: z.string().trim().max(2000, "Keep the note under 2,000 characters.").optional(),
});

export async function completeTaskAction(_prev: FormState, form: FormData): Promise<FormState> {
  const parsed = completeTaskForm.safeParse(Object.fromEntries(form));
  if (!parsed.success) return { message: parsed.error.issues[0].message };
  const result = await withMember((db, ctx) =>
    completeTask(db, { workspaceId: ctx.workspace.workspaceId, userId: ctx.userId, ...parsed.data }),
  );
  if (!result.success) return { message: result.error };
  revalidatePath("/tasks");
  return { success: "Task completed." };
}
