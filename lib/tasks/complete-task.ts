import type { Db } from "@/lib/db/doors";
import { refused, type Refused } from "@/lib/errors/app-error";
import { addNote } from "@/lib/notes/add-note";

/**
 * Spec 3.6: a member completes a task (status 'completed', completed_at now) and leaves a
 * task note saying so, with their words when they give some. Runs as the member (RLS).
 */
export async function completeTask(
  db: Db,
  input: { workspaceId: string; taskId: string; userId: string; note?: string },
): Promise<{ success: true } | Refused> {
  const [task] = await db`
    update public.tasks set status = 'completed', completed_at = now()
    where id = ${input.taskId} and workspace_id = ${input.workspaceId} and status <> 'completed'
    returning id, contact_id`;
  if (!task) return refused("conflict", "This task is already completed or no longer exists.");
  const note = input.note?.trim();
  await addNote(db, {
    workspaceId: input.workspaceId,
    contactId: task.contact_id,
    taskId: task.id,
    type: "task",
    text: note ? `Completed: ${note}` : "Completed.",
    createdBy: input.userId,
  });
  return { success: true };
}
