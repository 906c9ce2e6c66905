import type { Db } from "@/lib/db/doors";
import { loadBranding, type Branding } from "@/lib/email/branding";
import { compileTemplate, type CompiledTemplate } from "@/lib/email/email-template";
import { renderMerge, type MergeValues } from "@/lib/email/merge-tags";
import { renderEmail } from "@/lib/email/render-email";
import { resendClient } from "@/lib/email/resend-client";
import { reputationBreach, reputationLimits, workspaceReputation } from "@/lib/email/reputation";
import { loadRecipient, skipReasonFor } from "@/lib/email/send-email";
import { senderFor, type Sender } from "@/lib/email/sender";
import { nextUtcDay, reserveWarmup, returnWarmup } from "@/lib/email/warm-up";
import { enqueue } from "@/lib/jobs/enqueue";
import { createNotification } from "@/lib/notifications/create-notification";
import { segmentCondition, segmentFields } from "@/lib/segments/compile";
import { getSegment } from "@/lib/segments/get-segment";
import { safeTimeZone } from "@/lib/time/zones";
import { todayIn, zonedInputToUtc } from "@/lib/time/format";
import {
  following,
  WEEKDAYS,
  type BranchStep,
  type CampaignGoal,
  type CampaignStep,
  type SendEmailStep,
  type WaitStep,
} from "./steps";

/**
 * The campaign runner's work on one batch (docs/decisions.md, "Campaign waits as a due-time
 * index"), in the caller's transaction (lib/campaigns/flows/run-campaign-sweep.ts): the due
 * active enrollments of active campaigns are claimed FOR UPDATE SKIP LOCKED, and each runs its
 * steps until a wait or its end. Every effect (an email row and its delivery job, a tag, the step
 * log) and the enrollment's advance are in that transaction: a crash before the commit leaves
 * the batch as it was, to be run again; after it, nothing is run twice. The send step's row is
 * also unique per (enrollment, step, version), so no path can make a second one.
 */

interface Due {
  id: string;
  workspace_id: string;
  campaign_id: string;
  contact_id: string;
  version: number;
  current_step: string | null;
}

interface Version {
  steps: CampaignStep[];
  goals: CampaignGoal[];
  timezone: string;
  name: string;
  reputation_override: boolean;
}

/** Enrollments of a batch run at once (their statements pipelined on the batch's connection). */
const PIPELINED = 50;

/** Steps one enrollment may take in one run (the list is forward-only, so this is a guard). */
const MAX_STEPS_PER_RUN = 200;

/** Per batch: versions, brandings, senders, reputation and compiled templates read once. */
class BatchContext {
  versions = new Map<string, Version>();
  brandings = new Map<string, Branding>();
  /** whether the campaign is paused for its workspace's reputation, asked once per batch */
  private held = new Map<string, Promise<boolean>>();
  /** the sender of each workspace and what its domain's warm-up granted this batch */
  private warmups = new Map<string, Promise<{ sender: Sender; granted: number | null; used: number }>>();
  /** emails this batch queued for the provider */
  queued = 0;
  constructor(
    readonly db: Db,
    readonly batchSize: number,
  ) {}

  async branding(workspaceId: string) {
    let b = this.brandings.get(workspaceId);
    if (!b) this.brandings.set(workspaceId, (b = await loadBranding(this.db, workspaceId)));
    return b;
  }

  /** True when the campaign is (now) paused for its workspace's reputation: pauseForReputation. */
  heldForReputation(e: Due, version: Version): Promise<boolean> {
    let held = this.held.get(e.campaign_id);
    if (!held) this.held.set(e.campaign_id, (held = pauseForReputation(this.db, e, version)));
    return held;
  }

  /**
   * Takes one send from today's warm-up cap of the workspace's sending domain (lib/email/warm-up.ts,
   * shared with broadcasts): reserved once per batch for as many as the batch could send, the unused
   * rest given back at the batch's end (returnUnused). False when the day's cap is spent.
   */
  async takeWarmup(workspaceId: string): Promise<boolean> {
    let w = this.warmups.get(workspaceId);
    if (!w) {
      w = (async () => {
        const sender = await senderFor(this.db, workspaceId);
        const granted = await reserveWarmup(this.db, { workspaceId, sender, wanted: this.batchSize });
        return { sender, granted, used: 0 };
      })();
      this.warmups.set(workspaceId, w);
    }
    const warmup = await w;
    if (warmup.granted !== null && warmup.used >= warmup.granted) return false;
    warmup.used++;
    return true;
  }

  /** A send that took from the cap and then sent nothing (its row existed) gives it back. */
  async untakeWarmup(workspaceId: string) {
    const w = await this.warmups.get(workspaceId);
    if (w && w.used > 0) w.used--;
  }

  async returnUnused() {
    for (const w of this.warmups.values()) {
      const { sender, granted, used } = await w;
      if (granted !== null) await returnWarmup(this.db, { sender, unused: granted - used });
    }
  }
}

/**
 * Before a campaign's first send in a batch (docs/decisions.md, "A broadcast pauses itself for its
 * workspace's reputation", which campaigns follow): when the workspace's rates pass their limits,
 * the campaign pauses itself with the reason (`pause_kind` 'reputation': only an owner resumes it)
 * and every member is notified. An owner's resume sets `reputation_override`: the same rates do
 * not pause it again. True while it is paused so.
 */
async function pauseForReputation(db: Db, e: Due, version: Version): Promise<boolean> {
  if (version.reputation_override) return false;
  const limits = reputationLimits();
  const breach = reputationBreach(await workspaceReputation(db, e.workspace_id, limits.window), limits);
  if (!breach) return false;
  const [paused] = await db`
    update public.campaigns set status = 'paused', pause_kind = 'reputation', paused_reason = ${breach}
    where id = ${e.campaign_id} and workspace_id = ${e.workspace_id} and status = 'active'
    returning id`;
  if (paused)
    await createNotification(db, {
      workspaceId: e.workspace_id,
      type: "campaign.paused",
      title: `"${version.name}" paused to protect your sending reputation`,
      body: `${breach} An owner can resume it from the campaign's page.`,
      actionUrl: `/campaigns/${e.campaign_id}`,
      actionLabel: "Open the campaign",
    });
  return true;
}

/** Compiled templates by step, branding and body (MJML is slow: once per process, not per email). */
const templates = new Map<string, Promise<CompiledTemplate>>();
function compiled(step: SendEmailStep, branding: Branding): Promise<CompiledTemplate> {
  const key = JSON.stringify([step.body, branding]);
  let t = templates.get(key);
  if (!t) {
    if (templates.size > 500) templates.clear();
    t = compileTemplate(step.body, branding);
    t.catch(() => templates.delete(key));
    templates.set(key, t);
  }
  return t;
}

/** Starts the campaign emails' delivery (at most one job waits: singletonKey "kick"). */
export function kickDelivery(db: Db) {
  return enqueue(db, { queue: "campaign-delivery", data: {}, options: { singletonKey: "kick" } });
}

/** Runs one batch of due enrollments; returns how many it claimed. */
export async function runDueBatch(db: Db, input: { batchSize: number }): Promise<number> {
  const due = await claimDue(db, input.batchSize);
  if (due.length === 0) return 0;
  const ctx = new BatchContext(db, input.batchSize);
  const keys = [...new Set(due.map((d) => `${d.campaign_id}:${d.version}`))];
  const rows = await db<(Version & { campaign_id: string; version: number })[]>`
    select v.campaign_id, v.version, v.steps, v.goals, c.timezone, c.name, c.reputation_override
    from public.campaign_versions v join public.campaigns c on c.id = v.campaign_id
    where (v.campaign_id::text || ':' || v.version::text) = any(${keys}::text[])`;
  for (const r of rows) ctx.versions.set(`${r.campaign_id}:${r.version}`, r);
  // Enrollments run side by side on the batch's one connection: postgres.js pipelines their
  // statements, so a batch waits for the database's work, not for one round trip after another.
  // Each enrollment's own steps stay in order; one failing statement fails the batch, as before.
  for (let i = 0; i < due.length; i += PIPELINED)
    await Promise.all(due.slice(i, i + PIPELINED).map((e) => runEnrollment(ctx, e)));
  await ctx.returnUnused();
  // the emails this batch queued leave in batch calls (lib/campaigns/flows/deliver-campaign-emails.ts)
  if (ctx.queued > 0) await kickDelivery(db);
  return due.length;
}

/** The next due active enrollments of active campaigns, locked, skipping those another run holds. */
function claimDue(db: Db, size: number) {
  return db<Due[]>`
    select e.id, e.workspace_id, e.campaign_id, e.contact_id, e.version, e.current_step
    from public.campaign_enrollments e
    where e.status = 'active' and e.due_at <= now() and e.version is not null
      and exists (select 1 from public.campaigns c
                  where c.id = e.campaign_id and c.workspace_id = e.workspace_id and c.status = 'active')
    order by e.due_at, e.id
    limit ${size}
    for update of e skip locked`;
}

/**
 * After a batch failed: the first due enrollment leaves the campaign with the error (its step
 * could not run; the step log shows why), so the enrollments behind it continue. Returns whether
 * there was one.
 */
export async function exitFirstDue(db: Db, error: string): Promise<boolean> {
  const [e] = await claimDue(db, 1);
  if (!e) return false;
  await end(db, e, "exited", e.current_step ?? "start", `The step failed: ${error}`);
  return true;
}

async function runEnrollment(ctx: BatchContext, e: Due): Promise<void> {
  const { db } = ctx;
  const version = ctx.versions.get(`${e.campaign_id}:${e.version}`);
  if (!version)
    return end(db, e, "exited", e.current_step ?? "start", `Version ${e.version} does not exist.`);
  if (await goalReached(db, e, version.goals))
    return end(db, e, "completed", e.current_step ?? "start", "goal reached");
  const { steps } = version;
  let step: CampaignStep | null = e.current_step
    ? (steps.find((s) => s.id === e.current_step) ?? null)
    : (steps[0] ?? null);
  if (e.current_step && !step)
    return end(
      db,
      e,
      "exited",
      e.current_step,
      `The step "${e.current_step}" is not in version ${e.version}.`,
    );
  // standing on a wait that came due: the wait is over
  if (step?.type === "wait" && e.current_step === step.id) step = following(steps, step, step.next);
  for (let n = 0; n < MAX_STEPS_PER_RUN; n++) {
    if (!step) return end(db, e, "completed", e.current_step ?? "end", null);
    e.current_step = step.id;
    switch (step.type) {
      case "send_email": {
        const sent = await sendStep(ctx, e, step, version);
        if ("exit" in sent) return end(db, e, "exited", step.id, sent.exit);
        if ("held" in sent) return hold(db, e, step.id, sent.held);
        await log(db, e, step.id, sent.skipped ? "skipped" : "sent", sent.skipped ?? null);
        step = following(steps, step, step.next);
        break;
      }
      case "wait": {
        const dueAt = waitUntil(step, new Date(), version.timezone);
        await db`update public.campaign_enrollments set current_step = ${step.id}, due_at = ${dueAt}
                 where id = ${e.id}`;
        await log(db, e, step.id, "waiting", `until ${dueAt.toISOString()}`);
        return;
      }
      case "branch": {
        const yes = await conditionHolds(db, e, step);
        await log(db, e, step.id, "branched", yes ? "then" : "else");
        step = following(steps, step, yes ? step.then : step.else);
        break;
      }
      case "add_tag":
        await db`insert into public.contact_tags (workspace_id, contact_id, tag_id)
                 select ${e.workspace_id}, ${e.contact_id}, t.id from public.tags t
                 where t.id = ${step.tag_id} and t.workspace_id = ${e.workspace_id}
                 on conflict do nothing`;
        await log(db, e, step.id, "tagged", null);
        // a tag may be the goal: it completes the enrollment at once
        if (await goalReached(db, e, version.goals)) return end(db, e, "completed", step.id, "goal reached");
        step = following(steps, step, step.next);
        break;
      case "remove_tag":
        await db`delete from public.contact_tags
                 where contact_id = ${e.contact_id} and tag_id = ${step.tag_id} and workspace_id = ${e.workspace_id}`;
        await log(db, e, step.id, "untagged", null);
        step = following(steps, step, step.next);
        break;
      case "exit":
        return end(db, e, "exited", step.id, `Reached the exit step "${step.id}".`);
    }
  }
  return end(db, e, "exited", e.current_step ?? "start", "Too many steps in one run.");
}

/**
 * The enrollment stops on a send step that may not send yet: the campaign paused itself for its
 * workspace's reputation (due as it was: it sends when an owner resumes the campaign), or the sending
 * domain's warm-up cap for today is spent (due at the next UTC day). The steps before it are not run
 * again: the enrollment stands on the send step.
 */
async function hold(db: Db, e: Due, stepId: string, held: "reputation" | { until: Date }) {
  if (held === "reputation") {
    await db`update public.campaign_enrollments set current_step = ${stepId} where id = ${e.id}`;
    return;
  }
  await db`update public.campaign_enrollments set current_step = ${stepId}, due_at = ${held.until}
           where id = ${e.id}`;
  await log(db, e, stepId, "waiting", `for the sending domain's warm-up: until ${held.until.toISOString()}`);
}

/** The enrollment ends ('completed' or 'exited' with the reason), logged on its step. */
async function end(db: Db, e: Due, status: "completed" | "exited", stepId: string, reason: string | null) {
  await db`update public.campaign_enrollments
           set status = ${status}, exit_reason = ${status === "exited" ? reason : null},
               current_step = ${stepId}, due_at = null, ended_at = now()
           where id = ${e.id}`;
  await log(db, e, stepId, status, reason);
}

function log(db: Db, e: Due, stepId: string, outcome: string, detail: string | null) {
  return db`insert into public.campaign_step_runs (workspace_id, enrollment_id, campaign_id, version, step_id, outcome, detail)
            values (${e.workspace_id}, ${e.id}, ${e.campaign_id}, ${e.version}, ${stepId}, ${outcome}, ${detail?.slice(0, 500) ?? null})`;
}

/** Whether one of the version's goals holds for the contact (a goal tag it has). */
async function goalReached(db: Db, e: Due, goals: CampaignGoal[]): Promise<boolean> {
  const tagIds = goals.filter((g) => g.type === "tag_added").map((g) => g.tag_id);
  if (tagIds.length === 0) return false;
  const [hit] = await db`select 1 from public.contact_tags
                         where contact_id = ${e.contact_id} and workspace_id = ${e.workspace_id}
                           and tag_id = any(${tagIds}::uuid[]) limit 1`;
  return Boolean(hit);
}

/**
 * The send step: held while the campaign is paused for its workspace's reputation or the sending
 * domain's warm-up cap for today is spent (hold); eligibility asked again now (spec 8.3: consent,
 * suppressions; the step's topic), and an ineligible contact leaves the campaign with the reason. An email row with the step's
 * key, rendered as a broadcast is (Markdown in the workspace's branding, merge tags, the
 * unsubscribe link of the step's topic), delivered as every single email is: the dev outbox
 * stores it as delivered; with Resend, the 'campaign-delivery' job kicked in this transaction sends
 * it after the commit in a batch call, through the shared pacer (docs/decisions.md, "Campaign emails
 * in batches").
 */
async function sendStep(
  ctx: BatchContext,
  e: Due,
  step: SendEmailStep,
  version: Version,
): Promise<{ exit: string } | { held: "reputation" | { until: Date } } | { skipped?: string }> {
  const { db } = ctx;
  if (await ctx.heldForReputation(e, version)) return { held: "reputation" };
  const [contact] = await db<
    {
      email: string;
      first_name: string | null;
      last_name: string | null;
      city: string | null;
      country: string | null;
    }[]
  >`
    select email, first_name, last_name, city, country from public.contacts
    where id = ${e.contact_id} and workspace_id = ${e.workspace_id}`;
  if (!contact || !contact.email) return { exit: "erased" };
  const recipient = await loadRecipient(db, e.workspace_id, e.contact_id);
  const reason = skipReasonFor(
    { workspaceId: e.workspace_id, contactId: e.contact_id, kind: "marketing" },
    recipient,
  );
  if (reason) return { exit: reason };
  if (step.topic_id) {
    const [topic] = await db`select subscribed from public.contact_topics
                             where contact_id = ${e.contact_id} and topic_id = ${step.topic_id} and workspace_id = ${e.workspace_id}`;
    if (!topic?.subscribed) return { exit: "unsubscribed from the topic" };
  }
  let template: CompiledTemplate;
  try {
    template = await compiled(step, await ctx.branding(e.workspace_id));
  } catch (error) {
    return { exit: `The email did not render: ${error instanceof Error ? error.message : String(error)}` };
  }
  const merge: MergeValues = {
    first_name: contact.first_name,
    last_name: contact.last_name,
    email: contact.email,
    city: contact.city,
    country: contact.country,
  };
  const { html, text, headers } = renderEmail(
    {
      kind: "marketing",
      contactId: e.contact_id,
      html: template.html,
      text: template.text,
      merge,
      topicId: step.topic_id,
    },
    recipient,
  );
  if (!(await ctx.takeWarmup(e.workspace_id))) return { held: { until: nextUtcDay(new Date()) } };
  const direct = resendClient() === null; // the dev outbox: stored is delivered
  const [row] = await db<{ id: string }[]>`
    insert into public.email_sends
      (workspace_id, contact_id, to_email, kind, subject, html, text_body, headers, status, provider, sent_at,
       campaign_enrollment_id, campaign_step, campaign_version)
    values (${e.workspace_id}, ${e.contact_id}, ${contact.email}, 'marketing', ${renderMerge(step.subject, merge, "text")},
            ${html}, ${text ?? null}, ${db.json(headers)}, ${direct ? "outbox" : "queued"}, ${direct ? "outbox" : "resend"},
            ${direct ? new Date() : null}, ${e.id}, ${step.id}, ${e.version})
    on conflict (campaign_enrollment_id, campaign_step, campaign_version) where campaign_enrollment_id is not null
    do nothing
    returning id`;
  if (!row) {
    await ctx.untakeWarmup(e.workspace_id);
    return { skipped: "already sent" };
  }
  if (!direct) ctx.queued++;
  return {};
}

/** A branch's condition, read now. Opens and clicks count only people's (not machines'). */
async function conditionHolds(db: Db, e: Due, step: BranchStep): Promise<boolean> {
  const c = step.condition;
  switch (c.type) {
    case "opened":
    case "clicked": {
      const [hit] = await db`
        select 1 from public.email_sends s
        join public.email_events ev on ev.email_send_id = s.id and ev.workspace_id = s.workspace_id
        where s.campaign_enrollment_id = ${e.id} and s.campaign_step = ${c.step} and s.campaign_version = ${e.version}
          and s.workspace_id = ${e.workspace_id}
          and ev.type = ${c.type} and not ev.is_machine
        limit 1`;
      return Boolean(hit);
    }
    case "has_tag": {
      const [hit] = await db`select 1 from public.contact_tags
                             where contact_id = ${e.contact_id} and tag_id = ${c.tag_id} and workspace_id = ${e.workspace_id}`;
      return Boolean(hit);
    }
    case "in_segment": {
      const segment = await getSegment(db, { workspaceId: e.workspace_id, segmentId: c.segment_id });
      if ("error" in segment) return false; // deleted, or a filter that no longer parses
      const fields = await segmentFields(db, e.workspace_id, segment.data.filter);
      const [hit] = await db`select 1 from public.contacts c
                             where c.id = ${e.contact_id} and ${segmentCondition(db, e.workspace_id, segment.data.filter, fields)}`;
      return Boolean(hit);
    }
  }
}

/**
 * When a wait ends: after its duration, or at the next weekday/time in the campaign's zone
 * (the next day's when no weekday is given), always later than `now`.
 */
export function waitUntil(step: WaitStep, now: Date, timezone: string): Date {
  if (step.duration) {
    const { days = 0, hours = 0, minutes = 0 } = step.duration;
    return new Date(now.getTime() + ((days * 24 + hours) * 60 + minutes) * 60_000);
  }
  const zone = safeTimeZone(timezone);
  const { weekday, time } = step.until!;
  const target = weekday === undefined ? null : (WEEKDAYS.indexOf(weekday) + 1) % 7; // 0: Sunday
  const [y, m, d] = todayIn(zone, now).split("-").map(Number);
  for (let i = 0; i <= 7; i++) {
    const day = new Date(Date.UTC(y, m - 1, d + i));
    if (target !== null && day.getUTCDay() !== target) continue;
    const at = zonedInputToUtc(`${day.toISOString().slice(0, 10)}T${time}`, zone);
    if (at > now) return at;
  }
  return new Date(now.getTime() + 7 * 24 * 3600_000);
}

/**
 * Goals reached while waiting: every active enrollment whose version's tag goal the contact
 * holds is completed now, wherever it stands (run at the start of every sweep; a goal reached at
 * a step is seen by the step itself).
 */
export async function completeReachedGoals(db: Db): Promise<number> {
  const done = await db<Due[]>`
    with reached as (
      select e.id from public.campaign_enrollments e
      join public.campaign_versions v on v.campaign_id = e.campaign_id and v.version = e.version
      where e.status = 'active' and v.goals <> '[]'::jsonb
        and exists (select 1 from jsonb_array_elements(v.goals) g
                    join public.contact_tags ct on ct.contact_id = e.contact_id and ct.workspace_id = e.workspace_id
                    where g->>'type' = 'tag_added' and ct.tag_id = (g->>'tag_id')::uuid)
      for update of e skip locked
    )
    update public.campaign_enrollments e
    set status = 'completed', due_at = null, ended_at = now()
    from reached r where e.id = r.id
    returning e.id, e.workspace_id, e.campaign_id, e.contact_id, e.version, e.current_step`;
  for (const e of done) await log(db, e, e.current_step ?? "start", "completed", "goal reached");
  return done.length;
}
