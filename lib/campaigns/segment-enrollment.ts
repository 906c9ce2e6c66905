import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { segmentCondition, segmentFields } from "@/lib/segments/compile";
import { getSegment } from "@/lib/segments/get-segment";
import type { SegmentFilter } from "@/lib/segments/filter";

/**
 * Enrollment from a segment (docs/decisions.md, "Campaign enrollment from a segment"): a campaign
 * naming a segment (`campaigns.enroll_segment_id`) enrolls the contacts who enter it, and a
 * member may enroll everyone in a segment at once. Both are set-based (`insert … select`) and keep
 * the two rules of every enrollment: one active enrollment per contact and campaign
 * (`campaign_enrollments_active_key`), and none at all for a contact enrolled before when the
 * campaign does not allow re-enrollment (`allowedAgain`).
 */

/** Contacts enrolled per transaction by the one-off (CAMPAIGN_BULK_CHUNK). */
const bulkChunk = () => Number(process.env.CAMPAIGN_BULK_CHUNK) || 5_000;

/**
 * The re-enrollment rule, on a candidate `x.contact_id` of campaign `c`: a campaign that does not
 * allow re-enrollment takes a contact only if it was never enrolled (any state).
 */
export const allowedAgain = (db: Db) =>
  db`(c.allow_reenrollment or not exists (
        select 1 from public.campaign_enrollments pe
        where pe.campaign_id = c.id and pe.workspace_id = c.workspace_id and pe.contact_id = x.contact_id))`;

async function filterOf(db: Db, workspaceId: string, segmentId: string): Promise<SegmentFilter | null> {
  const segment = await getSegment(db, { workspaceId, segmentId });
  return "error" in segment ? null : segment.data.filter;
}

/**
 * The campaign's enrollment segment changed: who is in it now is recorded as already there, so
 * only those who enter it from now on are enrolled (the one-off enrolls the others when asked).
 */
export async function primeSegmentMembers(
  db: Db,
  input: { workspaceId: string; campaignId: string; segmentId: string | null },
): Promise<void> {
  await db`delete from public.campaign_segment_members
           where campaign_id = ${input.campaignId} and workspace_id = ${input.workspaceId}`;
  if (!input.segmentId) return;
  const filter = await filterOf(db, input.workspaceId, input.segmentId);
  if (!filter) return;
  const fields = await segmentFields(db, input.workspaceId, filter);
  await db`
    insert into public.campaign_segment_members (workspace_id, campaign_id, contact_id)
    select ${input.workspaceId}, ${input.campaignId}, c.id from public.contacts c
    where ${segmentCondition(db, input.workspaceId, filter, fields)}
    on conflict (workspace_id, campaign_id, contact_id) do nothing`;
}

/**
 * One look at every active campaign with an enrollment segment: the contacts in it and not
 * recorded are recorded and enrolled (by the rules), the recorded ones no longer in it are
 * forgotten. One statement per campaign. Returns the enrollments made.
 */
export async function enrollSegmentEntrants(db: Db): Promise<number> {
  const campaigns = await db<{ id: string; workspace_id: string; enroll_segment_id: string }[]>`
    select id, workspace_id, enroll_segment_id from public.campaigns
    where enroll_segment_id is not null and status = 'active'`;
  let enrolled = 0;
  for (const campaign of campaigns) {
    const filter = await filterOf(db, campaign.workspace_id, campaign.enroll_segment_id);
    if (!filter) continue;
    const fields = await segmentFields(db, campaign.workspace_id, filter);
    const ws = campaign.workspace_id;
    const [row] = await db<{ n: number }[]>`
      with now_in as (
        select c.id from public.contacts c where ${segmentCondition(db, ws, filter, fields)}
      ), gone as (
        delete from public.campaign_segment_members m
        where m.campaign_id = ${campaign.id} and m.workspace_id = ${ws}
          and not exists (select 1 from now_in where now_in.id = m.contact_id)
      ), entered as (
        insert into public.campaign_segment_members (workspace_id, campaign_id, contact_id)
        select ${ws}, ${campaign.id}, now_in.id from now_in
        on conflict (workspace_id, campaign_id, contact_id) do nothing
        returning contact_id
      ), made as (
        insert into public.campaign_enrollments (workspace_id, campaign_id, contact_id)
        select c.workspace_id, c.id, x.contact_id
        from entered x join public.campaigns c on c.id = ${campaign.id} and c.workspace_id = ${ws}
        where ${allowedAgain(db)}
        on conflict (campaign_id, contact_id) where status = 'active' do nothing
        returning id
      )
      select count(*)::int as n from made`;
    enrolled += row.n;
  }
  return enrolled;
}

export interface BulkEnroll {
  segment_id: string;
  total: number;
  done: number;
  enrolled: number;
  /** the last contact id looked at (the keyset of the next chunk) */
  after: string | null;
  started_at: string;
  finished_at: string | null;
}

/**
 * "Enroll everyone in it now": records the one-off on the campaign (its progress) for the
 * campaign sweep to run chunk by chunk (runBulkEnrollChunk). 409 while one runs; 404 for a
 * segment of another workspace.
 */
export async function startBulkEnroll(
  db: Db,
  input: { workspaceId: string; campaignId: string; segmentId: string },
): Promise<BulkEnroll> {
  const [campaign] = await db<{ status: string; bulk_enroll: BulkEnroll | null }[]>`
    select status, bulk_enroll from public.campaigns
    where id = ${input.campaignId} and workspace_id = ${input.workspaceId} for no key update`;
  if (!campaign) throw new AppError("not_found", "Campaign not found.");
  if (campaign.status === "archived") throw new AppError("conflict", "The campaign is archived.");
  if (campaign.bulk_enroll && !campaign.bulk_enroll.finished_at)
    throw new AppError("conflict", "An enrollment of a segment is already running.");
  const filter = await filterOf(db, input.workspaceId, input.segmentId);
  if (!filter) throw new AppError("not_found", "Segment not found.");
  const fields = await segmentFields(db, input.workspaceId, filter);
  const [count] = await db<{ n: number }[]>`
    select count(*)::int as n from public.contacts c where ${segmentCondition(db, input.workspaceId, filter, fields)}`;
  const progress: BulkEnroll = {
    segment_id: input.segmentId,
    total: count.n,
    done: 0,
    enrolled: 0,
    after: null,
    started_at: new Date().toISOString(),
    finished_at: null,
  };
  await db`update public.campaigns set bulk_enroll = ${db.json(progress as never)}
           where id = ${input.campaignId} and workspace_id = ${input.workspaceId}`;
  return progress;
}

/**
 * One chunk of a running one-off (the campaign sweep calls it in its own transaction until it
 * answers false): the next contacts of the segment by id, enrolled with `insert … select` by the
 * rules, the progress advanced in the same transaction (a crash repeats the chunk, whose
 * inserts the rules make harmless).
 */
export async function runBulkEnrollChunk(db: Db): Promise<boolean> {
  const [campaign] = await db<{ id: string; workspace_id: string; bulk_enroll: BulkEnroll }[]>`
    select id, workspace_id, bulk_enroll from public.campaigns
    where bulk_enroll is not null and bulk_enroll->>'finished_at' is null and status <> 'archived'
    order by bulk_enroll->>'started_at' limit 1
    for no key update skip locked`;
  if (!campaign) return false;
  const progress = campaign.bulk_enroll;
  const ws = campaign.workspace_id;
  const filter = await filterOf(db, ws, progress.segment_id);
  const size = bulkChunk();
  let chunk = { n: 0, made: 0, last: null as string | null };
  if (filter) {
    const fields = await segmentFields(db, ws, filter);
    [chunk] = await db<{ n: number; made: number; last: string | null }[]>`
      with picked as (
        select c.id as contact_id from public.contacts c
        where ${segmentCondition(db, ws, filter, fields)}
          ${progress.after ? db`and c.id > ${progress.after}` : db``}
        order by c.id limit ${size}
      ), made as (
        insert into public.campaign_enrollments (workspace_id, campaign_id, contact_id)
        select c.workspace_id, c.id, x.contact_id
        from picked x join public.campaigns c on c.id = ${campaign.id} and c.workspace_id = ${ws}
        where ${allowedAgain(db)}
        on conflict (campaign_id, contact_id) where status = 'active' do nothing
        returning id
      )
      select (select count(*)::int from picked) as n, (select count(*)::int from made) as made,
             (select max(contact_id::text) from picked) as last`;
  }
  const next: BulkEnroll = {
    ...progress,
    done: progress.done + chunk.n,
    enrolled: progress.enrolled + chunk.made,
    after: chunk.last ?? progress.after,
    finished_at: chunk.n < size ? new Date().toISOString() : null,
  };
  await db`update public.campaigns set bulk_enroll = ${db.json(next as never)} where id = ${campaign.id}`;
  return true;
}
