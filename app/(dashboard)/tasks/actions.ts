"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { refuseIf } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { completeTask } from "@/lib/tasks/complete-task";

/** Spec 3.6: complete a task (its id a hidden field of the form), with an optional closing note. */
export const completeTaskAction = memberAction(
  z.object({
    taskId: uuidField("Choose a task."),
    note: z.string().trim().max(2000, "Keep the note under 2,000 characters.").optional(),
  }),
  async (db, input, ctx): Promise<FormState> => {
    refuseIf(await completeTask(db, { workspaceId: ctx.workspaceId, userId: ctx.userId, ...input }));
    ctx.audit.target("task", input.taskId).change({ status: "open" }, { status: "completed" });
    return { success: "Task completed." };
  },
  { audit: "task.updated", args: ["taskId"], after: () => revalidatePath("/tasks") },
);
