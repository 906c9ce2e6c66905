import type { Db } from "@/lib/db/doors";

/** Whether the form is one of the workspace's (ids from a URL are checked before use). */
export async function formExists(db: Db, input: { workspaceId: string; formId: string }): Promise<boolean> {
  const [form] = await db`
    select 1 from public.forms where id = ${input.formId} and workspace_id = ${input.workspaceId}`;
  return Boolean(form);
}
