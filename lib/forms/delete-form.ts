import type { Db } from "@/lib/db/doors";

/** Deletes a form; its submissions, pending submissions and automations go with it (cascade). */
export async function deleteForm(db: Db, input: { workspaceId: string; formId: string }): Promise<boolean> {
  const rows = await db`
    delete from public.forms where id = ${input.formId} and workspace_id = ${input.workspaceId} returning id`;
  return rows.length === 1;
}
