import type { Db } from "@/lib/db/doors";
import { listSegments } from "@/lib/segments/get-segment";

export interface AutomationListItem {
  id: string;
  name: string;
  action_type: "add_tag" | "enroll_campaign" | "create_task";
  is_active: boolean;
  runs: number;
  failed_runs: number;
  /** runs for contacts outside the automation's segment (docs/decisions.md, "Segments") */
  skipped_runs: number;
  last_run_at: Date | null;
  created_at: Date;
}

export interface AutomationChoices {
  tags: { id: string; name: string }[];
  campaigns: { id: string; name: string }[];
  segments: { id: string; name: string }[];
}

/** A form's automations with a summary of their run log (one query). */
export async function listFormAutomations(
  db: Db,
  input: { workspaceId: string; formId: string },
): Promise<AutomationListItem[]> {
  return db<AutomationListItem[]>`
    select a.id, a.name, a.action_type, a.is_active, a.created_at,
           count(r.id)::int as runs,
           (count(r.id) filter (where r.status = 'failed'))::int as failed_runs,
           (count(r.id) filter (where r.status = 'skipped'))::int as skipped_runs,
           max(r.created_at) as last_run_at
    from public.automations a
    left join public.automation_runs r on r.automation_id = a.id
    where a.workspace_id = ${input.workspaceId} and a.form_id = ${input.formId}
      and a.trigger_type = 'form_submitted'
    group by a.id
    order by a.created_at, a.id`;
}

/** The tags, campaigns and segments an automation can point at. */
export async function automationChoices(db: Db, workspaceId: string): Promise<AutomationChoices> {
  const tags = await db<{ id: string; name: string }[]>`
    select id, name from public.tags where workspace_id = ${workspaceId} order by lower(name)`;
  const campaigns = await db<{ id: string; name: string }[]>`
    select id, name from public.campaigns where workspace_id = ${workspaceId} and status <> 'archived'
    order by lower(name)`;
  return { tags, campaigns, segments: await listSegments(db, { workspaceId }) };
}
