import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { validateSteps } from "./steps";

/**
 * What the campaigns dashboard reads and checks beside the campaign functions (campaigns.ts):
 * every error of a step list at once, each beside its step; the numbers per step; the campaigns
 * a contact can be enrolled in. Scoped to the workspace given, in the caller's transaction.
 */

export interface StepListErrors {
  /** by the step's position in the list */
  steps: Record<number, string>;
  /** by the goal's position */
  goals: Record<number, string>;
  /** a refusal of the list as a whole (too many steps) */
  list?: string;
}

/**
 * Every refusal validateSteps (steps.ts) has for the list, not only the first: the step it
 * names is replaced by a well-formed stand-in keeping its id (so that the steps pointing at it
 * still read it as they did) and the list is checked again, until it passes. The messages are
 * validateSteps' own. An empty result: the list is valid.
 */
export async function collectStepErrors(
  db: Db,
  workspaceId: string,
  rawSteps: unknown[],
  rawGoals: unknown[],
): Promise<StepListErrors> {
  const out: StepListErrors = { steps: {}, goals: {} };
  const steps = [...rawSteps];
  const goals = [...rawGoals];
  const goalPositions = goals.map((_, i) => i);
  for (let round = 0; round <= steps.length + goals.length; round++) {
    try {
      await validateSteps(db, workspaceId, steps, goals);
      return out;
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== "invalid") throw error;
      const field = error.field ?? "";
      const step = /^steps\[(\d+)\]$/.exec(field);
      const goal = /^goals\[(-?\d+)\]$/.exec(field);
      if (step) {
        const i = Number(step[1]);
        out.steps[i] ??= error.message;
        steps[i] = standIn(steps[i], i, steps);
      } else if (goal && Number(goal[1]) >= 0) {
        const g = Number(goal[1]);
        out.goals[goalPositions[g]] ??= error.message;
        goals.splice(g, 1);
        goalPositions.splice(g, 1);
      } else {
        out.list = error.message;
        return out;
      }
    }
  }
  return out;
}

/** A step that passes validation in the place of a refused one (its id kept when usable). */
function standIn(step: unknown, index: number, steps: unknown[]) {
  const id = (step as { id?: unknown })?.id;
  const taken = steps.filter((s, i) => i !== index && (s as { id?: unknown })?.id === id).length > 0;
  const usable = typeof id === "string" && /^[a-z0-9][a-z0-9_-]{0,63}$/.test(id) && id !== "end" && !taken;
  return {
    id: usable ? id : `invalid-step-${index}`,
    type: "send_email",
    subject: "-",
    body: "-",
  };
}

export interface StepNumbers {
  step_id: string;
  entered: number;
  waiting: number;
  sent: number;
  opened: number;
  clicked: number;
  exited: number;
  goal_reached: number;
}

/**
 * The numbers per step of a campaign, every version together (a step keeps its id across
 * versions): entered (enrollments that ran the step), waiting (active enrollments standing on
 * it now), sent (its emails), opened and clicked (its emails people opened or clicked, machines
 * left out, as the branch reads them), exited there, and goal reached there (the step-run log,
 * docs/decisions.md "Campaigns as versioned step lists").
 */
export async function campaignStepNumbers(
  db: Db,
  input: { workspaceId: string; campaignId: string },
): Promise<Map<string, StepNumbers>> {
  if (!isUuid(input.campaignId)) return new Map();
  const rows = await db<StepNumbers[]>`
    with runs as (
      select step_id,
             count(distinct enrollment_id) filter (where outcome <> 'completed')::int as entered,
             count(distinct enrollment_id) filter (where outcome = 'exited')::int as exited,
             count(distinct enrollment_id) filter (where outcome = 'completed' and detail like 'goal reached%')::int as goal_reached
      from public.campaign_step_runs
      where campaign_id = ${input.campaignId} and workspace_id = ${input.workspaceId}
      group by step_id
    ), standing as (
      select current_step as step_id, count(*)::int as waiting
      from public.campaign_enrollments
      where campaign_id = ${input.campaignId} and workspace_id = ${input.workspaceId}
        and status = 'active' and current_step is not null
      group by current_step
    ), sends as (
      select s.campaign_step as step_id, count(*)::int as sent,
             count(*) filter (where exists (
               select 1 from public.email_events ev
               where ev.email_send_id = s.id and ev.workspace_id = s.workspace_id
                 and ev.type = 'opened' and not ev.is_machine))::int as opened,
             count(*) filter (where exists (
               select 1 from public.email_events ev
               where ev.email_send_id = s.id and ev.workspace_id = s.workspace_id
                 and ev.type = 'clicked' and not ev.is_machine))::int as clicked
      from public.email_sends s
      join public.campaign_enrollments e on e.id = s.campaign_enrollment_id and e.workspace_id = s.workspace_id
      where e.campaign_id = ${input.campaignId} and s.workspace_id = ${input.workspaceId}
      group by s.campaign_step
    ), ids as (
      select step_id from runs union select step_id from standing union select step_id from sends
    )
    select ids.step_id,
           coalesce(runs.entered, 0) as entered, coalesce(standing.waiting, 0) as waiting,
           coalesce(sends.sent, 0) as sent, coalesce(sends.opened, 0) as opened,
           coalesce(sends.clicked, 0) as clicked, coalesce(runs.exited, 0) as exited,
           coalesce(runs.goal_reached, 0) as goal_reached
    from ids
    left join runs using (step_id) left join standing using (step_id) left join sends using (step_id)`;
  return new Map(rows.map((r) => [r.step_id, r]));
}

/**
 * The campaigns a member can enroll the contact in from its page: the workspace's active ones,
 * each saying whether the contact is in it now.
 */
export async function enrollableCampaigns(db: Db, input: { workspaceId: string; contactId: string }) {
  if (!isUuid(input.contactId)) return [];
  return db<{ id: string; name: string; enrolled: boolean }[]>`
    select c.id, c.name,
           exists (select 1 from public.campaign_enrollments e
                   where e.campaign_id = c.id and e.workspace_id = c.workspace_id
                     and e.contact_id = ${input.contactId} and e.status = 'active') as enrolled
    from public.campaigns c
    where c.workspace_id = ${input.workspaceId} and c.status = 'active'
    order by lower(c.name), c.id
    limit 200`;
}

/** What the builder's selects offer, all of the workspace (components/campaigns/campaign-builder.tsx). */
export async function builderOptions(db: Db, workspaceId: string) {
  type Row = { id: string; name: string };
  const [tags, topics, segments, products, events, forms, members, endpoints, fields] = await Promise.all([
    db<Row[]>`
      select id, name from public.tags where workspace_id = ${workspaceId} order by lower(name), id limit 500`,
    db<Row[]>`
      select id, name from public.email_topics where workspace_id = ${workspaceId} order by lower(name), id`,
    db<Row[]>`
      select id, name from public.segments where workspace_id = ${workspaceId} order by lower(name), id limit 200`,
    db<Row[]>`
      select id, name from public.products where workspace_id = ${workspaceId} order by lower(name), id limit 500`,
    db<Row[]>`
      select id, name from public.events where workspace_id = ${workspaceId}
      order by start_time desc nulls last, id limit 200`,
    db<Row[]>`
      select id, name from public.forms where workspace_id = ${workspaceId} order by lower(name), id limit 500`,
    db<Row[]>`
      select m.user_id as id,
             coalesce(nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''), p.email) as name
      from public.workspace_members m join public.user_profiles p on p.id = m.user_id
      where m.workspace_id = ${workspaceId} order by 2, 1`,
    db<Row[]>`
      select id, coalesce(nullif(description, ''), url) as name from public.webhook_endpoints
      where workspace_id = ${workspaceId} order by created_at, id`,
    db<{ key: string; label: string; field_type: string }[]>`
      select key, label, field_type from public.custom_fields where workspace_id = ${workspaceId}
      order by position, key`,
  ]);
  return { tags, topics, segments, products, events, forms, members, endpoints, fields };
}

/** A campaign's enrollments per state (DESIGN section 9: active, completed, cancelled, exited). */
export async function enrollmentCounts(db: Db, input: { workspaceId: string; campaignId: string }) {
  const [row] = await db<{ active: number; completed: number; cancelled: number; exited: number }[]>`
    select count(*) filter (where status = 'active')::int as active,
           count(*) filter (where status = 'completed')::int as completed,
           count(*) filter (where status = 'cancelled')::int as cancelled,
           count(*) filter (where status = 'exited')::int as exited
    from public.campaign_enrollments
    where campaign_id = ${input.campaignId} and workspace_id = ${input.workspaceId}`;
  return row;
}
