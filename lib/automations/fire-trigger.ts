import type { Db } from "@/lib/db/doors";

export type TriggerType = "form_submitted" | "product_refunded" | "event_registration";

export interface FireTriggerInput {
  workspaceId: string;
  trigger: TriggerType;
  contactId: string;
  /** the automation's subject: the form, the product or the event */
  formId?: string;
  productId?: string;
  eventId?: string;
  payload?: Record<string, unknown>;
}

interface Automation {
  id: string;
  action_type: "add_tag" | "enroll_campaign" | "create_task";
  action_config: Record<string, unknown>;
}

async function runAction(db: Db, a: Automation, input: FireTriggerInput): Promise<void> {
  const config = a.action_config;
  switch (a.action_type) {
    case "add_tag":
      await db`
        insert into public.contact_tags (contact_id, tag_id, workspace_id)
        select ${input.contactId}, t.id, t.workspace_id from public.tags t
        where t.id = ${String(config.tag_id)} and t.workspace_id = ${input.workspaceId}
        on conflict do nothing`;
      return;
    case "enroll_campaign":
      await db`
        insert into public.campaign_enrollments (workspace_id, campaign_id, contact_id, event_id)
        select c.workspace_id, c.id, ${input.contactId}, ${input.eventId ?? null} from public.campaigns c
        where c.id = ${String(config.campaign_id)} and c.workspace_id = ${input.workspaceId}
        on conflict (campaign_id, contact_id) where status = 'active' do nothing`;
      return;
    case "create_task":
      await db`
        insert into public.tasks (workspace_id, contact_id, title, due_date)
        values (${input.workspaceId}, ${input.contactId}, ${String(config.title ?? "Follow up")},
                current_date + ${Number(config.due_in_days ?? 1)}::int)`;
      return;
  }
}

/**
 * Spec 6.2: runs the workspace's active automations for a trigger and its subject (a form,
 * a product, an event), each in a savepoint so one failing action neither stops the others
 * nor the caller, and logs every run in automation_runs.
 */
export async function fireTrigger(db: Db, input: FireTriggerInput): Promise<{ ran: number; failed: number }> {
  const automations = await db<Automation[]>`
    select id, action_type, action_config from public.automations
    where workspace_id = ${input.workspaceId} and trigger_type = ${input.trigger} and is_active
      and (form_id is null or form_id = ${input.formId ?? null})
      and (product_id is null or product_id = ${input.productId ?? null})
      and (event_id is null or event_id = ${input.eventId ?? null})
    order by created_at`;
  let failed = 0;
  for (const automation of automations) {
    let error: string | null = null;
    try {
      await db.savepoint((sp) => runAction(sp, automation, input));
    } catch (e) {
      error = e instanceof Error ? e.message : String(e);
      failed += 1;
    }
    await db`
      insert into public.automation_runs (workspace_id, automation_id, contact_id, trigger_type, status, error, payload)
      values (${input.workspaceId}, ${automation.id}, ${input.contactId}, ${input.trigger},
              ${error ? "failed" : "succeeded"}, ${error}, ${db.json((input.payload ?? {}) as never)})`;
  }
  return { ran: automations.length, failed };
}
