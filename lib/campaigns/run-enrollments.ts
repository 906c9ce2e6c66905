import type { Db } from "@/lib/db/doors";
import { loadBranding, type Branding } from "@/lib/email/branding";
import { compileTemplate, type CompiledTemplate } from "@/lib/email/email-template";
import { renderMerge, type MergeValues } from "@/lib/email/merge-tags";
import { bestLocale } from "@/lib/i18n/locales";
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
import type { Condition } from "@/lib/segments/filter";
import {
  createTaskStep,
  joinTopicStep,
  leaveTopicStep,
  notifyMemberStep,
  sendWebhookStep,
  updateFieldStep,
  type StepResult,
} from "./step-effects";
import {
  following,
  WEEKDAYS,
  type BranchCondition,
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
  event_id: string | null;
  enrolled_at: Date;
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

/** Compiled templates by body and branding (MJML is slow: once per process, not per email). */
const templates = new Map<string, Promise<CompiledTemplate>>();
function compiled(body: string, branding: Branding): Promise<CompiledTemplate> {
  const key = JSON.stringify([body, branding]);
  let t = templates.get(key);
  if (!t) {
    if (templates.size > 500) templates.clear();
    t = compileTemplate(body, branding);
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
  // Each enrollment's own steps stay in order; one failing statement fails the batch, as before,
  // but only once every enrollment beside it has stopped: a rollback while others still send
  // statements on the connection would leave them waiting on a transaction that has ended.
  for (let i = 0; i < due.length; i += PIPELINED) {
    const outcomes = await Promise.allSettled(due.slice(i, i + PIPELINED).map((e) => runEnrollment(ctx, e)));
    const failed = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
    if (failed) throw failed.reason;
  }
  await ctx.returnUnused();
  // the emails this batch queued leave in batch calls (lib/campaigns/flows/deliver-campaign-emails.ts)
  if (ctx.queued > 0) await kickDelivery(db);
  return due.length;
}

/** The next due active enrollments of active campaigns, locked, skipping those another run holds. */
function claimDue(db: Db, size: number) {
  return db<Due[]>`
    select e.id, e.workspace_id, e.campaign_id, e.contact_id, e.version, e.current_step, e.event_id, e.enrolled_at
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
        const dueAt = step.before_event
          ? await beforeEvent(db, e, step.before_event)
          : waitUntil(step, new Date(), version.timezone);
        if (dueAt !== null && Number.isNaN(dueAt.getTime()))
          throw new Error(`the wait of step "${step.id}" gives no valid time`);
        if (dueAt === null || dueAt <= new Date()) {
          // the moment has passed (or the event is unknown, or has no start): go on at once
          await log(
            db,
            e,
            step.id,
            "skipped",
            dueAt === null ? "no event start to wait for" : "the time has passed",
          );
          step = following(steps, step, step.next);
          break;
        }
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
        await standOn(db, e, step.id);
        await db`insert into public.contact_tags (workspace_id, contact_id, tag_id)
                 select ${e.workspace_id}, ${e.contact_id}, t.id from public.tags t
                 where t.id = ${step.tag_id} and t.workspace_id = ${e.workspace_id}
                 on conflict do nothing`;
        await log(db, e, step.id, "tagged", null);
        // a tag may be the goal: the database's goal trigger completes the enrollment at once
        if (await endedMeanwhile(db, e, step.id)) return;
        step = following(steps, step, step.next);
        break;
      case "remove_tag":
        await db`delete from public.contact_tags
                 where contact_id = ${e.contact_id} and tag_id = ${step.tag_id} and workspace_id = ${e.workspace_id}`;
        await log(db, e, step.id, "untagged", null);
        step = following(steps, step, step.next);
        break;
      case "join_topic":
      case "leave_topic":
      case "create_task":
      case "update_field":
      case "send_webhook":
      case "notify_member": {
        if (step.type === "join_topic" || step.type === "leave_topic") await standOn(db, e, step.id);
        const result = await effectStep(db, e, step, version.name);
        await log(db, e, step.id, result.outcome, result.detail);
        // leaving a topic the campaign sends to exits it (the database's exit trigger)
        if (await endedMeanwhile(db, e, step.id)) return;
        step = following(steps, step, step.next);
        break;
      }
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

/**
 * Before a step whose effect may fire the database's goal or exit triggers (a tag, a topic): the
 * enrollment is recorded on it, so a trigger that ends the enrollment logs it at this step.
 */
function standOn(db: Db, e: Due, stepId: string) {
  return db`update public.campaign_enrollments set current_step = ${stepId} where id = ${e.id}`;
}

/**
 * After a step whose effect may fire the database's goal or exit triggers (a tag, a topic): the
 * enrollment ended meanwhile (the trigger logged why), so the run stops; its step is recorded.
 */
async function endedMeanwhile(db: Db, e: Due, stepId: string): Promise<boolean> {
  const [row] = await db<{ status: string }[]>`
    select status from public.campaign_enrollments where id = ${e.id}`;
  if (row?.status === "active") return false;
  await db`update public.campaign_enrollments set current_step = ${stepId} where id = ${e.id}`;
  return true;
}

/** The step types that change a contact or tell someone (lib/campaigns/step-effects.ts). */
function effectStep(
  db: Db,
  e: Due,
  step: Extract<
    CampaignStep,
    { type: "join_topic" | "leave_topic" | "create_task" | "update_field" | "send_webhook" | "notify_member" }
  >,
  campaignName: string,
): Promise<StepResult> {
  switch (step.type) {
    case "join_topic":
      return joinTopicStep(db, e, step.topic_id, campaignName);
    case "leave_topic":
      return leaveTopicStep(db, e, step.topic_id);
    case "create_task":
      return createTaskStep(db, e, step);
    case "update_field":
      return updateFieldStep(db, e, step, campaignName);
    case "send_webhook":
      return sendWebhookStep(db, e, step);
    case "notify_member":
      return notifyMemberStep(db, e, step, campaignName);
  }
}

/** A wait before_event: the event's start (the step's event, else the enrollment's) minus the hours. */
async function beforeEvent(
  db: Db,
  e: Due,
  until: NonNullable<WaitStep["before_event"]>,
): Promise<Date | null> {
  const eventId = until.event_id ?? e.event_id;
  if (!eventId) return null;
  const [event] = await db<{ start_time: Date | null }[]>`
    select start_time from public.events where id = ${eventId} and workspace_id = ${e.workspace_id}`;
  if (!event?.start_time) return null;
  return new Date(event.start_time.getTime() - until.hours * 3600_000);
}

/**
 * Whether one of the version's goals holds for the contact now: a goal tag it holds, a succeeded
 * purchase of the product or a submission of the form since it was enrolled, the goal segment it
 * is in. (The database's triggers complete the enrollment the moment a tag, purchase or
 * submission is stored; this check catches one stored while the enrollment was being run.)
 */
async function goalReached(db: Db, e: Due, goals: CampaignGoal[]): Promise<boolean> {
  if (goals.length === 0) return false;
  const [hit] = await db<{ hit: boolean }[]>`select ${goalSql(db, e, goals)} as hit`;
  if (hit?.hit) return true;
  for (const goal of goals) {
    if (goal.type !== "segment_entered") continue;
    if (await inSegment(db, e, goal.segment_id)) return true;
  }
  return false;
}

function goalSql(db: Db, e: Due, goals: CampaignGoal[]) {
  const ids = (type: CampaignGoal["type"], key: string) =>
    goals.filter((g) => g.type === type).map((g) => (g as Record<string, string>)[key]);
  const tags = ids("tag_added", "tag_id");
  const products = ids("purchased", "product_id");
  const forms = ids("form_submitted", "form_id");
  return db`(exists (select 1 from public.contact_tags
                    where contact_id = ${e.contact_id} and workspace_id = ${e.workspace_id}
                      and tag_id = any(${tags}::uuid[]))
          or exists (select 1 from public.transactions
                    where contact_id = ${e.contact_id} and workspace_id = ${e.workspace_id}
                      and status = 'succeeded' and product_id = any(${products}::uuid[])
                      and created_at >= ${e.enrolled_at})
          or exists (select 1 from public.form_submissions
                    where contact_id = ${e.contact_id} and workspace_id = ${e.workspace_id}
                      and form_id = any(${forms}::uuid[]) and created_at >= ${e.enrolled_at}))`;
}

/** Whether the contact is in the stored segment now (a deleted or unreadable one holds no one). */
async function inSegment(db: Db, e: Due, segmentId: string): Promise<boolean> {
  const segment = await getSegment(db, { workspaceId: e.workspace_id, segmentId });
  if ("error" in segment) return false;
  const fields = await segmentFields(db, e.workspace_id, segment.data.filter);
  const [hit] = await db`select 1 from public.contacts c
                         where c.id = ${e.contact_id} and ${segmentCondition(db, e.workspace_id, segment.data.filter, fields)}`;
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
      locale: string | null;
    }[]
  >`
    select email, first_name, last_name, city, country, locale from public.contacts
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
  // the step's email in the contact's language when it has one (docs/decisions.md, "Recipient languages")
  const language = contact.locale ? bestLocale([contact.locale]) : null;
  const email = (language && step.translations?.[language]) || step;
  let template: CompiledTemplate;
  try {
    template = await compiled(email.body, await ctx.branding(e.workspace_id));
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
    values (${e.workspace_id}, ${e.contact_id}, ${contact.email}, 'marketing', ${renderMerge(email.subject, merge, "text")},
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

/**
 * A branch's condition, read now. Opens and clicks count only people's (not machines'), of the
 * step's email in any version of the enrollment (one moved to a newer version keeps the email
 * sent under the older: docs/decisions.md, "Moving enrollments to a new campaign version").
 */
async function conditionHolds(db: Db, e: Due, step: BranchStep): Promise<boolean> {
  const c = step.condition;
  switch (c.type) {
    case "opened":
    case "clicked": {
      const [hit] = await db`
        select 1 from public.email_sends s
        join public.email_events ev on ev.email_send_id = s.id and ev.workspace_id = s.workspace_id
        where s.campaign_enrollment_id = ${e.id} and s.campaign_step = ${c.step}
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
    case "in_segment":
      return inSegment(db, e, c.segment_id);
    case "no_show": {
      const eventId = c.event_id ?? e.event_id;
      const [hit] = await db`
        select 1 from public.event_registrations r
        join public.events ev on ev.id = r.event_id and ev.workspace_id = r.workspace_id
        where r.contact_id = ${e.contact_id} and r.workspace_id = ${e.workspace_id} and r.status = 'registered'
          and r.checked_in_at is null and ev.start_time < now()
          ${eventId ? db`and r.event_id = ${eventId}` : db``}
        limit 1`;
      return Boolean(hit);
    }
    case "custom_field":
    case "purchased":
    case "registered":
    case "attended": {
      // the segment filter's condition of the same meaning, on the one contact row
      const one = segmentConditionOf(c, e.event_id);
      const filter = {
        version: 1 as const,
        root: { kind: "group" as const, op: "and" as const, not: false, conditions: [one] },
      };
      const fields = await segmentFields(db, e.workspace_id, filter);
      const [hit] = await db`select 1 from public.contacts c
                             where c.id = ${e.contact_id} and ${segmentCondition(db, e.workspace_id, filter, fields)}`;
      return Boolean(hit);
    }
  }
}

/** A branch condition as the segment filter's condition (lib/segments/filter.ts). */
function segmentConditionOf(
  c: Extract<BranchCondition, { type: "custom_field" | "purchased" | "registered" | "attended" }>,
  enrollmentEvent: string | null,
): Condition {
  switch (c.type) {
    case "custom_field": {
      const { type: _type, ...rest } = c;
      return { kind: "custom_field", not: false, ...rest };
    }
    case "purchased":
      return { kind: "purchased", not: false, productId: c.product_id, window: {} };
    case "registered":
      return { kind: "event_registered", not: false, eventId: c.event_id ?? enrollmentEvent ?? undefined };
    case "attended":
      return { kind: "event_attended", not: false, eventId: c.event_id ?? enrollmentEvent ?? undefined };
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
 * Goals reached and exits due while enrollments wait (docs/decisions.md, "Campaign goals and exits
 * at once"), run at the start of every sweep: the database's triggers end an enrollment the moment
 * a goal tag, purchase or submission, a suppression or a topic left is stored, but skip one a
 * batch holds locked; and "entered a segment" is no stored fact. Set-based statements: a goal
 * completes, a suppression (any reason, spec 8.3) or a topic left that a send step of the version
 * uses exits. Returns how many enrollments ended.
 */
export async function completeReachedGoals(db: Db): Promise<number> {
  const done = await db<Due[]>`
    with reached as (
      select e.id from public.campaign_enrollments e
      join public.campaign_versions v on v.campaign_id = e.campaign_id and v.version = e.version
      where e.status = 'active' and v.goals <> '[]'::jsonb
        and exists (
          select 1 from jsonb_array_elements(v.goals) g
          where (g->>'type' = 'tag_added' and exists (
                  select 1 from public.contact_tags ct
                  where ct.contact_id = e.contact_id and ct.workspace_id = e.workspace_id
                    and ct.tag_id = (g->>'tag_id')::uuid))
             or (g->>'type' = 'purchased' and exists (
                  select 1 from public.transactions t
                  where t.contact_id = e.contact_id and t.workspace_id = e.workspace_id and t.status = 'succeeded'
                    and t.product_id = (g->>'product_id')::uuid and t.created_at >= e.enrolled_at))
             or (g->>'type' = 'form_submitted' and exists (
                  select 1 from public.form_submissions f
                  where f.contact_id = e.contact_id and f.workspace_id = e.workspace_id
                    and f.form_id = (g->>'form_id')::uuid and f.created_at >= e.enrolled_at)))
      for update of e skip locked
    )
    update public.campaign_enrollments e
    set status = 'completed', due_at = null, ended_at = now()
    from reached r where e.id = r.id
    returning e.id, e.workspace_id, e.campaign_id, e.contact_id, e.version, e.current_step`;
  for (const e of done) await log(db, e, e.current_step ?? "start", "completed", "goal reached");
  let ended = done.length;
  ended += await completeSegmentGoals(db);
  const exited = await db<(Due & { reason: string })[]>`
    with due as (
      select e.id,
             (select min(s.reason) || ' suppression' from public.contact_suppressions s
              where s.contact_id = e.contact_id and s.workspace_id = e.workspace_id) as suppressed,
             (select 'unsubscribed from the topic' from public.contact_topics ct
              where ct.contact_id = e.contact_id and ct.workspace_id = e.workspace_id and not ct.subscribed
                and v.steps @> jsonb_build_array(jsonb_build_object('type', 'send_email', 'topic_id', ct.topic_id))
              limit 1) as topic_left
      from public.campaign_enrollments e
      join public.campaign_versions v on v.campaign_id = e.campaign_id and v.version = e.version
      where e.status = 'active' and v.steps @> '[{"type": "send_email"}]'::jsonb
        and (exists (select 1 from public.contact_suppressions s
                     where s.contact_id = e.contact_id and s.workspace_id = e.workspace_id)
             or exists (select 1 from public.contact_topics ct
                        where ct.contact_id = e.contact_id and ct.workspace_id = e.workspace_id and not ct.subscribed))
      for update of e skip locked
    ), leaving as (
      select id, coalesce(suppressed, topic_left) as reason from due where coalesce(suppressed, topic_left) is not null
    )
    update public.campaign_enrollments e
    set status = 'exited', exit_reason = l.reason, due_at = null, ended_at = now()
    from leaving l where e.id = l.id
    returning e.id, e.workspace_id, e.campaign_id, e.contact_id, e.version, e.current_step, l.reason`;
  for (const e of exited) await log(db, e, e.current_step ?? "start", "exited", e.reason);
  ended += exited.length;
  return ended;
}

/** Goals "entered a segment": per goal segment of a version with active enrollments, one statement. */
async function completeSegmentGoals(db: Db): Promise<number> {
  const goals = await db<{ workspace_id: string; segment_id: string }[]>`
    select distinct v.workspace_id, g->>'segment_id' as segment_id
    from public.campaign_versions v cross join lateral jsonb_array_elements(v.goals) g
    where g->>'type' = 'segment_entered'
      and exists (select 1 from public.campaign_enrollments e
                  where e.campaign_id = v.campaign_id and e.version = v.version and e.status = 'active')`;
  let ended = 0;
  for (const goal of goals) {
    const segment = await getSegment(db, { workspaceId: goal.workspace_id, segmentId: goal.segment_id });
    if ("error" in segment) continue;
    const filter = segment.data.filter;
    const fields = await segmentFields(db, goal.workspace_id, filter);
    const done = await db<Due[]>`
      with reached as (
        select e.id from public.campaign_enrollments e
        join public.campaign_versions v on v.campaign_id = e.campaign_id and v.version = e.version
        join public.contacts c on c.id = e.contact_id
        where e.workspace_id = ${goal.workspace_id} and e.status = 'active'
          and v.goals @> ${db.json([{ type: "segment_entered", segment_id: goal.segment_id }])}
          and ${segmentCondition(db, goal.workspace_id, filter, fields)}
        for update of e skip locked
      )
      update public.campaign_enrollments e
      set status = 'completed', due_at = null, ended_at = now()
      from reached r where e.id = r.id
      returning e.id, e.workspace_id, e.campaign_id, e.contact_id, e.version, e.current_step`;
    for (const e of done)
      await log(db, e, e.current_step ?? "start", "completed", "goal reached: segment_entered");
    ended += done.length;
  }
  return ended;
}
