import type { Db } from "@/lib/db/doors";
import type { FormSettings } from "./form-settings";

/** Creates a form in the workspace (RLS: Admin+, spec 5.4). No key until one is generated. */
export async function createForm(
  db: Db,
  input: { workspaceId: string; settings: FormSettings },
): Promise<{ id: string }> {
  const [form] = await db`
    insert into public.forms ${db({ ...input.settings, workspace_id: input.workspaceId })}
    returning id`;
  return { id: form.id };
}
