import type { Db } from "@/lib/db/doors";
import type { FormSettings } from "./form-settings";

/** Saves a form's settings (RLS: Admin+). False when no such form is visible to the caller. */
export async function updateForm(
  db: Db,
  input: { workspaceId: string; formId: string; settings: FormSettings },
): Promise<boolean> {
  const rows = await db`
    update public.forms set ${db(input.settings)}
    where id = ${input.formId} and workspace_id = ${input.workspaceId}
    returning id`;
  return rows.length === 1;
}
