import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { createCampaign } from "@/lib/campaigns/create-campaign";
import type { AutomationAction } from "./automation-action";

/**
 * Adds a form_submitted automation to a form (spec 6.2: "form verification fires the
 * automations linked to the form"; path B fires them too). RLS: Admin+. Tags and campaigns
 * named in the action are created in the workspace when they do not exist yet. With a segment
 * (one of the workspace's), the action runs only for contacts in it (docs/decisions.md, "Segments").
 */
export async function createFormAutomation(
  db: Db,
  input: { workspaceId: string; formId: string; action: AutomationAction; segmentId?: string | null },
): Promise<Result<{ id: string }>> {
  const [form] = await db`
    select id from public.forms where id = ${input.formId} and workspace_id = ${input.workspaceId}`;
  if (!form) return refused("not_found", "This form does not exist.");
  const segment = input.segmentId ? await findOne(db, "segments", input.workspaceId, input.segmentId) : null;
  if (input.segmentId && !segment)
    return refused("not_found", "That segment does not exist.", { field: "segment_id" });
  const { action, workspaceId } = input;
  let config: Record<string, unknown>;
  let name: string;
  switch (action.action_type) {
    case "add_tag": {
      const tag = action.tag_id
        ? await findOne(db, "tags", workspaceId, action.tag_id)
        : await upsertTag(db, workspaceId, action.new_tag);
      if (!tag) return refused("not_found", "That tag does not exist.");
      config = { tag_id: tag.id };
      name = `Add tag “${tag.name}”`;
      break;
    }
    case "enroll_campaign": {
      const campaign = action.campaign_id
        ? await findOne(db, "campaigns", workspaceId, action.campaign_id)
        : {
            ...(await createCampaign(db, { workspaceId, name: action.new_campaign })),
            name: action.new_campaign,
          };
      if (!campaign) return refused("not_found", "That campaign does not exist.");
      config = { campaign_id: campaign.id };
      name = `Enroll in campaign “${campaign.name}”`;
      break;
    }
    case "create_task":
      config = { title: action.task_title, due_in_days: action.due_in_days };
      name = `Create task “${action.task_title}”`;
      break;
  }
  if (segment) name = `${name} for segment “${segment.name}”`;
  const [automation] = await db`
    insert into public.automations (workspace_id, name, trigger_type, form_id, action_type, action_config, segment_id)
    values (${workspaceId}, ${name}, 'form_submitted', ${input.formId}, ${action.action_type},
            ${db.json(config as never)}, ${segment?.id ?? null})
    returning id`;
  return { data: { id: automation.id } };
}

async function findOne(db: Db, table: "tags" | "campaigns" | "segments", workspaceId: string, id: string) {
  const [row] = await db<{ id: string; name: string }[]>`
    select id, name from ${db("public." + table)} where id = ${id} and workspace_id = ${workspaceId}`;
  return row ?? null;
}

async function upsertTag(db: Db, workspaceId: string, name: string) {
  const [tag] = await db<{ id: string; name: string }[]>`
    insert into public.tags (workspace_id, name) values (${workspaceId}, ${name})
    on conflict (workspace_id, name) do update set name = excluded.name
    returning id, name`;
  return tag;
}
