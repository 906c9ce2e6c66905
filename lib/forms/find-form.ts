import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import type { PublicForm } from "./form-row";

/** Spec 4.2 step 1: the form by id, with its workspace's name. Null for unknown or malformed ids. */
export async function findForm(db: Db, formId: string): Promise<PublicForm | null> {
  if (!isUuid(formId)) return null;
  const [form] = await db<PublicForm[]>`
    select f.*, w.name as workspace_name, w.default_locale as workspace_locale,
               exists (select 1 from public.automations a
                       where a.workspace_id = f.workspace_id and a.trigger_type = 'form_submitted' and a.is_active
                         and (a.form_id is null or a.form_id = f.id)) as has_automations
    from public.forms f join public.workspaces w on w.id = f.workspace_id
    where f.id = ${formId}`;
  return form ?? null;
}
