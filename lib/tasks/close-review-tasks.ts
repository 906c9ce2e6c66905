import { asService, type Db } from "@/lib/db/doors";
import { escapeHtml } from "@/lib/html/escape";

/**
 * Spec 3.6 and 4.4: closes the open refund review tasks of a payment intent (status
 * 'completed', completed_at now) and gives each a system note of type 'task' (created_by
 * null) stating the reason, in one statement.
 */
export async function closeReviewTasks(
  db: Db,
  input: { workspaceId: string; paymentIntentId: string; reason: string },
): Promise<string[]> {
  // the notes are the system's (created_by null), also when a member's refund closes the tasks:
  // through the service door (migration 20261128000800_authorship), for the workspace and payment
  // the caller read as themself
  const rows = await asService(
    db,
    () => db`
    with closed as (
      update public.tasks set status = 'completed', completed_at = now()
      where workspace_id = ${input.workspaceId} and kind = 'refund_review'
        and payproc_payment_intent_id = ${input.paymentIntentId} and status in ('open', 'in_progress')
      returning id, contact_id, workspace_id
    )
    insert into public.notes (workspace_id, contact_id, task_id, type, content, content_text, created_by)
    select workspace_id, contact_id, id, 'task', ${`<p>${escapeHtml(input.reason)}</p>`}, ${input.reason}, null
    from closed
    returning task_id`,
  );
  return rows.map((r) => r.task_id as string);
}
