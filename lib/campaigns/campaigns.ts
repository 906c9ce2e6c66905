import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { enqueue } from "@/lib/jobs/enqueue";
import { isTimeZone } from "@/lib/time/zones";
import { primeSegmentMembers, type BulkEnroll } from "./segment-enrollment";
import { validateSteps, type CampaignGoal, type CampaignStep } from "./steps";

/**
 * Campaigns as versioned step lists (docs/decisions.md, "Campaigns as versioned step lists"):
 * the draft (`campaigns.steps`, `goals`) is edited freely; publishing copies it into a new
 * `campaign_versions` row, which enrollments then run. Every function here is scoped to the
 * workspace it is given, as the caller (the REST API's service door, or a member).
 */

export type CampaignStatus = "draft" | "active" | "paused" | "archived";
export type EnrollmentStatus = "active" | "completed" | "cancelled" | "exited";

export interface Campaign {
  id: string;
  name: string;
  status: CampaignStatus;
  steps: CampaignStep[];
  goals: CampaignGoal[];
  allow_reenrollment: boolean;
  timezone: string;
  published_version: number | null;
  /** 'reputation' when the campaign paused itself for its workspace's rates (only an owner resumes it) */
  pause_kind: "reputation" | null;
  paused_reason: string | null;
  /** the segment whose entrants are enrolled (docs/decisions.md, "Campaign enrollment from a segment") */
  enroll_segment_id: string | null;
  /** the progress of the last one-off "enroll everyone in a segment now" */
  bulk_enroll: BulkEnroll | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = (db: Db) =>
  db`id, name, status, steps, goals, allow_reenrollment, timezone, published_version, pause_kind, paused_reason,
     enroll_segment_id, bulk_enroll, created_at, updated_at`;

export async function getCampaign(db: Db, input: { workspaceId: string; campaignId: string }) {
  if (!isUuid(input.campaignId)) return null;
  const [row] = await db<Campaign[]>`
    select ${COLUMNS(db)} from public.campaigns
    where id = ${input.campaignId} and workspace_id = ${input.workspaceId}`;
  return row ?? null;
}

export async function listCampaigns(db: Db, input: { workspaceId: string; limit?: number }) {
  return db<(Campaign & { counts: Record<EnrollmentStatus, number> })[]>`
    select ${COLUMNS(db)},
           (select jsonb_build_object(
                     'active', count(*) filter (where e.status = 'active'),
                     'completed', count(*) filter (where e.status = 'completed'),
                     'cancelled', count(*) filter (where e.status = 'cancelled'),
                     'exited', count(*) filter (where e.status = 'exited'))
            from public.campaign_enrollments e where e.campaign_id = c.id and e.workspace_id = c.workspace_id) as counts
    from public.campaigns c where c.workspace_id = ${input.workspaceId}
    order by c.created_at desc, c.id limit ${input.limit ?? 200}`;
}

export interface CampaignDraftInput {
  name?: string;
  steps?: unknown[];
  goals?: unknown[];
  allow_reenrollment?: boolean;
  timezone?: string;
  /** null: no segment enrolls its entrants */
  enroll_segment_id?: string | null;
}

/** Refuses (400 naming the field) a segment that is not the workspace's. */
async function checkSegment(db: Db, workspaceId: string, segmentId: string | null | undefined) {
  if (!segmentId) return;
  const [found] = isUuid(segmentId)
    ? await db`select 1 from public.segments where id = ${segmentId} and workspace_id = ${workspaceId}`
    : [];
  if (!found)
    throw new AppError("invalid", "No such segment in this workspace.", { field: "enroll_segment_id" });
}

/** A new draft campaign; an invalid step list is refused (validateSteps) and nothing is stored. */
export async function createCampaignDraft(
  db: Db,
  input: { workspaceId: string } & CampaignDraftInput & { name: string },
): Promise<Campaign> {
  const { steps, goals } = await validateSteps(db, input.workspaceId, input.steps ?? [], input.goals ?? []);
  if (input.timezone && !isTimeZone(input.timezone))
    throw new AppError("invalid", "Unknown time zone.", { field: "timezone" });
  await checkSegment(db, input.workspaceId, input.enroll_segment_id);
  const [row] = await db<Campaign[]>`
    insert into public.campaigns (workspace_id, name, status, steps, goals, allow_reenrollment, timezone, enroll_segment_id)
    values (${input.workspaceId}, ${input.name}, 'draft', ${db.json(steps)}, ${db.json(goals)},
            ${input.allow_reenrollment ?? true}, ${input.timezone ?? "UTC"}, ${input.enroll_segment_id ?? null})
    returning ${COLUMNS(db)}`;
  if (row.enroll_segment_id)
    await primeSegmentMembers(db, {
      workspaceId: input.workspaceId,
      campaignId: row.id,
      segmentId: row.enroll_segment_id,
    });
  return row;
}

/**
 * Changes the draft and settings, and the status: 'paused' stops every step, 'active' resumes
 * (a draft becomes active only by publishing), 'archived' cancels the active enrollments. A pause
 * for the workspace's reputation is lifted only by an owner (`byOwner`, which the caller checked);
 * the campaign is then not paused again for the same rates (`reputation_override`).
 */
export async function updateCampaign(
  db: Db,
  input: {
    workspaceId: string;
    campaignId: string;
    status?: "active" | "paused" | "archived";
    byOwner?: boolean;
  } & CampaignDraftInput,
): Promise<Campaign> {
  const before = await getCampaign(db, input);
  if (!before) throw new AppError("not_found");
  const validated =
    input.steps !== undefined || input.goals !== undefined
      ? await validateSteps(db, input.workspaceId, input.steps ?? before.steps, input.goals ?? before.goals)
      : null;
  if (input.timezone && !isTimeZone(input.timezone))
    throw new AppError("invalid", "Unknown time zone.", { field: "timezone" });
  await checkSegment(db, input.workspaceId, input.enroll_segment_id);
  if (input.status && input.status !== before.status) {
    if (before.status === "archived") throw new AppError("conflict", "An archived campaign stays archived.");
    if (input.status === "active" && before.published_version === null)
      throw new AppError("conflict", "Publish the campaign to start it.");
    if (input.status === "active" && before.pause_kind === "reputation" && !input.byOwner)
      throw new AppError(
        "conflict",
        "Only an owner can resume a campaign paused to protect the workspace's sending reputation, from its page.",
      );
  }
  const resumed = input.status === "active" && before.status === "paused";
  const [row] = await db<Campaign[]>`
    update public.campaigns set
      name = ${input.name ?? before.name},
      steps = ${db.json(validated?.steps ?? before.steps)},
      goals = ${db.json(validated?.goals ?? before.goals)},
      allow_reenrollment = ${input.allow_reenrollment ?? before.allow_reenrollment},
      timezone = ${input.timezone ?? before.timezone},
      status = ${input.status ?? before.status},
      pause_kind = ${resumed ? null : before.pause_kind},
      paused_reason = ${resumed ? null : before.paused_reason},
      reputation_override = reputation_override or ${resumed && before.pause_kind === "reputation"},
      enroll_segment_id = ${input.enroll_segment_id === undefined ? before.enroll_segment_id : input.enroll_segment_id},
      updated_at = now()
    where id = ${before.id} and workspace_id = ${input.workspaceId}
    returning ${COLUMNS(db)}`;
  if (row.enroll_segment_id !== before.enroll_segment_id)
    await primeSegmentMembers(db, {
      workspaceId: input.workspaceId,
      campaignId: before.id,
      segmentId: row.enroll_segment_id,
    });
  if (input.status === "archived" && before.status !== "archived")
    await db`
      update public.campaign_enrollments
      set status = 'cancelled', cancelled_at = now(), ended_at = now(), due_at = null
      where campaign_id = ${before.id} and workspace_id = ${input.workspaceId} and status = 'active'`;
  if (input.status === "active" && before.status === "paused") await kickRunner(db);
  return row;
}

/**
 * Publishes the draft as the next version (checked again: the draft may name a tag deleted
 * since). Enrollments already inside keep their version unless `moveEnrollments` is asked
 * (moveEnrollments); enrollments waiting for a first version (enrolled before any publication)
 * start on this one. A draft campaign becomes active.
 */
export async function publishCampaign(
  db: Db,
  input: { workspaceId: string; campaignId: string; moveEnrollments?: boolean },
) {
  const before = await getCampaign(db, input);
  if (!before) throw new AppError("not_found");
  if (before.status === "archived")
    throw new AppError("conflict", "An archived campaign cannot be published.");
  const { steps, goals } = await validateSteps(db, input.workspaceId, before.steps, before.goals);
  if (steps.length === 0)
    throw new AppError("invalid", "A campaign needs at least one step to publish.", { field: "steps" });
  const [locked] = await db<{ version: number }[]>`
    update public.campaigns
    set published_version = coalesce(published_version, 0) + 1,
        status = case when status = 'draft' then 'active' else status end,
        updated_at = now()
    where id = ${before.id} and workspace_id = ${input.workspaceId}
    returning published_version as version`;
  await db`
    insert into public.campaign_versions (workspace_id, campaign_id, version, steps, goals)
    values (${input.workspaceId}, ${before.id}, ${locked.version}, ${db.json(steps)}, ${db.json(goals)})`;
  await db`
    update public.campaign_enrollments set version = ${locked.version}, due_at = now()
    where campaign_id = ${before.id} and workspace_id = ${input.workspaceId}
      and status = 'active' and version is null`;
  if (input.moveEnrollments) await moveEnrollments(db, input);
  await kickRunner(db);
  return (await getCampaign(db, input))!;
}

/**
 * Moves the active enrollments of older versions to the published one (docs/decisions.md,
 * "Moving enrollments to a new campaign version"), by step id: one that has not started yet
 * starts the new version at its first step; one waiting on a step moves when the new version has
 * a wait of the same id, keeping its due time, and goes on from there; one whose wait is not in
 * the new version (removed, or no longer a wait) keeps its version. Each move is a 'moved' step
 * run ("from version n"). An email step already sent stays sent: its key names the version, and
 * the journey only goes forward from the wait. Returns the moved and kept counts.
 */
export async function moveEnrollments(
  db: Db,
  input: { workspaceId: string; campaignId: string },
): Promise<{ moved: number; kept: number }> {
  const [campaign] = await db<{ published_version: number | null }[]>`
    select published_version from public.campaigns
    where id = ${input.campaignId} and workspace_id = ${input.workspaceId}`;
  if (!campaign) throw new AppError("not_found");
  const to = campaign.published_version;
  if (to === null) return { moved: 0, kept: 0 };
  const moved = await db<{ id: string; from_version: number; current_step: string | null }[]>`
    with target as (
      select steps from public.campaign_versions
      where campaign_id = ${input.campaignId} and workspace_id = ${input.workspaceId} and version = ${to}
    ), movable as (
      select e.id, e.version as from_version from public.campaign_enrollments e, target t
      where e.campaign_id = ${input.campaignId} and e.workspace_id = ${input.workspaceId}
        and e.status = 'active' and e.version < ${to}
        and (e.current_step is null
             or t.steps @> jsonb_build_array(jsonb_build_object('id', e.current_step, 'type', 'wait')))
      for update of e
    )
    update public.campaign_enrollments e set version = ${to}
    from movable m where e.id = m.id
    returning e.id, m.from_version, e.current_step`;
  if (moved.length > 0)
    await db`
      insert into public.campaign_step_runs (workspace_id, enrollment_id, campaign_id, version, step_id, outcome, detail)
      select ${input.workspaceId}, m.id, ${input.campaignId}, ${to}, coalesce(m.step, 'start'), 'moved',
             'from version ' || m.from_version
      from unnest(${moved.map((m) => m.id)}::uuid[], ${moved.map((m) => m.current_step)}::text[],
                  ${moved.map((m) => m.from_version)}::int[]) as m(id, step, from_version)`;
  const [kept] = await db<{ n: number }[]>`
    select count(*)::int as n from public.campaign_enrollments
    where campaign_id = ${input.campaignId} and workspace_id = ${input.workspaceId}
      and status = 'active' and version < ${to}`;
  return { moved: moved.length, kept: kept.n };
}

/**
 * Enrolls a contact (the REST API, a member): 409 `already_enrolled` while the contact has an
 * active enrollment in the campaign, or has had any when the campaign does not allow
 * re-enrollment; 404 for a contact or campaign of another workspace. The enrollment starts at
 * once on the published version (the campaign_enrollments_start trigger) and the runner is kicked.
 */
export async function enrollContact(
  db: Db,
  input: { workspaceId: string; campaignId: string; contactId: string; eventId?: string | null },
): Promise<{ id: string; status: EnrollmentStatus }> {
  const campaign = await getCampaign(db, input);
  if (!campaign) throw new AppError("not_found", "Campaign not found.");
  if (campaign.status === "archived") throw new AppError("conflict", "The campaign is archived.");
  if (!isUuid(input.contactId)) throw new AppError("not_found", "Contact not found.");
  const [contact] = await db`
    select id from public.contacts where id = ${input.contactId} and workspace_id = ${input.workspaceId}`;
  if (!contact) throw new AppError("not_found", "Contact not found.");
  const [earlier] = await db<{ status: EnrollmentStatus }[]>`
    select status from public.campaign_enrollments
    where campaign_id = ${campaign.id} and contact_id = ${input.contactId} and workspace_id = ${input.workspaceId}
      and (status = 'active' or ${!campaign.allow_reenrollment})
    limit 1`;
  if (earlier) throw new AppError("already_enrolled", "The contact is already enrolled in this campaign.");
  const [row] = await db<{ id: string; status: EnrollmentStatus }[]>`
    insert into public.campaign_enrollments (workspace_id, campaign_id, contact_id, event_id)
    values (${input.workspaceId}, ${campaign.id}, ${input.contactId}, ${input.eventId ?? null})
    on conflict (campaign_id, contact_id) where status = 'active' do nothing
    returning id, status`;
  if (!row) throw new AppError("already_enrolled", "The contact is already enrolled in this campaign.");
  await kickRunner(db);
  return row;
}

export interface EnrollmentRow {
  id: string;
  contact_id: string;
  status: EnrollmentStatus;
  version: number | null;
  current_step: string | null;
  due_at: Date | null;
  exit_reason: string | null;
  enrolled_at: Date;
  ended_at: Date | null;
}

/** A page of a campaign's enrollments, oldest first (keyset on enrolled_at, id: `limit + 1` rows). */
export async function listEnrollments(
  db: Db,
  input: {
    workspaceId: string;
    campaignId: string;
    status?: EnrollmentStatus;
    after: { key: string; id: string } | null;
    limit: number;
  },
) {
  const after = input.after;
  return db<(EnrollmentRow & { sort_key: string })[]>`
    select enrolled_at::text as sort_key, id, contact_id, status, version, current_step, due_at, exit_reason,
           enrolled_at, ended_at
    from public.campaign_enrollments
    where campaign_id = ${input.campaignId} and workspace_id = ${input.workspaceId}
      ${input.status ? db`and status = ${input.status}` : db``}
      ${after ? db`and (enrolled_at, id) > (${after.key}::timestamptz, ${after.id}::uuid)` : db``}
    order by enrolled_at, id
    limit ${input.limit + 1}`;
}

/**
 * Asks the runner to sweep now (in the caller's transaction), rather than at its next minute;
 * at most one such job waits at a time.
 */
export async function kickRunner(db: Db): Promise<void> {
  await enqueue(db, { queue: "campaign-sweep", data: {}, options: { singletonKey: "kick" } });
}
