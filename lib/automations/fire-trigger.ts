import type { Db } from "@/lib/db/doors";
import { allowedAgain } from "@/lib/campaigns/segment-enrollment";
import { contactInSegment } from "@/lib/segments/contact-segments";

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
  /** the segment the automation keeps to, and its stored filter (null: every contact) */
  segment_id: string | null;
  segment_filter: unknown;
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
      // one active enrollment per contact (the unique key), none again where the campaign does not
      // allow re-enrollment (docs/decisions.md, "Campaign enrollment from a segment")
      await db`
        insert into public.campaign_enrollments (workspace_id, campaign_id, contact_id, event_id)
        select c.workspace_id, c.id, x.contact_id, ${input.eventId ?? null}
        from public.campaigns c, (select ${input.contactId}::uuid as contact_id) x
        where c.id = ${String(config.campaign_id)} and c.workspace_id = ${input.workspaceId}
          and c.status <> 'archived' and ${allowedAgain(db)}
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
 * nor the caller, and logs every run in automation_runs. An automation with a segment runs its
 * action only when the contact matches the segment now; otherwise the run is logged as
 * 'skipped' (docs/decisions.md, "Segments").
 */
export async function fireTrigger(
  db: Db,
  input: FireTriggerInput,
): Promise<{ ran: number; failed: number; skipped: number }> {
  const automations = await db<Automation[]>`
    select a.id, a.action_type, a.action_config, a.segment_id, s.filter as segment_filter
    from public.automations a
    left join public.segments s on s.workspace_id = a.workspace_id and s.id = a.segment_id
    where a.workspace_id = ${input.workspaceId} and a.trigger_type = ${input.trigger} and a.is_active
      and (a.form_id is null or a.form_id = ${input.formId ?? null})
      and (a.product_id is null or a.product_id = ${input.productId ?? null})
      and (a.event_id is null or a.event_id = ${input.eventId ?? null})
    order by a.created_at`;
  let failed = 0;
  let skipped = 0;
  for (const automation of automations) {
    let error: string | null = null;
    let payload = input.payload ?? {};
    const outside =
      automation.segment_id !== null &&
      !(await contactInSegment(db, {
        workspaceId: input.workspaceId,
        contactId: input.contactId,
        filter: automation.segment_filter,
      }));
    if (outside) {
      skipped += 1;
      payload = { ...payload, skipped: "not_in_segment", segment_id: automation.segment_id };
    } else {
      try {
        await db.savepoint((sp) => runAction(sp, automation, input));
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
        failed += 1;
      }
    }
    const status = outside ? "skipped" : error ? "failed" : "succeeded";
    await db`
      insert into public.automation_runs (workspace_id, automation_id, contact_id, trigger_type, status, error, payload)
      values (${input.workspaceId}, ${automation.id}, ${input.contactId}, ${input.trigger},
              ${status}, ${error}, ${db.json(payload as never)})`;
  }
  return { ran: automations.length - skipped, failed, skipped };
}
