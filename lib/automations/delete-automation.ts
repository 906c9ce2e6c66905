import type { Db } from "@/lib/db/doors";

/** Removes an automation (RLS: Admin+); its run log goes with it. */
export async function deleteAutomation(
  db: Db,
  input: { workspaceId: string; automationId: string },
): Promise<boolean> {
  const rows = await db`
    delete from public.automations where id = ${input.automationId} and workspace_id = ${input.workspaceId}
    returning id`;
  return rows.length === 1;
}
