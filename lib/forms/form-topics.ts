import type { Db } from "@/lib/db/doors";
import { resolveTopicIds } from "@/lib/consent/topics";

/**
 * The subscription topics a form subscribes to (docs/decisions.md, "Subscription topics"): only
 * topics of the form's workspace are kept. None: a submission joins the default topics.
 * RLS: Admin+ update forms. False when no such form is visible to the caller.
 */
export async function setFormTopics(
  db: Db,
  input: { workspaceId: string; formId: string; topicIds: readonly unknown[] },
): Promise<boolean> {
  const topicIds = await resolveTopicIds(db, input.workspaceId, input.topicIds);
  const rows = await db`
    update public.forms set topic_ids = ${topicIds}::uuid[]
    where id = ${input.formId} and workspace_id = ${input.workspaceId}
    returning id`;
  return rows.length === 1;
}

/** The form's topics as stored (the settings page ticks them). */
export async function getFormTopicIds(
  db: Db,
  input: { workspaceId: string; formId: string },
): Promise<string[]> {
  const [row] = await db<{ topic_ids: string[] }[]>`
    select topic_ids from public.forms where id = ${input.formId} and workspace_id = ${input.workspaceId}`;
  return row?.topic_ids ?? [];
}
