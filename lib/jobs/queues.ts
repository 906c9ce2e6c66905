import { z } from "zod";
import { uuidSchema } from "@/lib/ids/uuid";
import { defineQueue } from "./contract";

/** The schema pg-boss installs into and keeps its jobs in. */
export const JOBS_SCHEMA = "pgboss";

/**
 * What every job of a workspace carries: its workspace, so the jobs page can show a workspace its
 * own jobs. An account email (sign-up, reset) belongs to no workspace: its job carries null and
 * no jobs page shows it.
 */
const workspaceJob = <Shape extends z.ZodRawShape>(shape: Shape) =>
  z.object({ workspaceId: uuidSchema, ...shape });

/** Every queue of the service: its payload's shape and version, and its retry policy. */
export const QUEUES = {
  /**
   * One stored ticketing delivery: re-read from Eventbrite, then applied. Ten attempts, 5 s · 2^n
   * with jitter between them (the first two retries come within 30 s); a worker that dies
   * holding one (it beats every 5 s) frees it once 10 s pass without a beat. After the last
   * attempt the job is failed and the inbox row 'dead'.
   */
  "ticketing-delivery": defineQueue({
    name: "ticketing-delivery",
    version: 1,
    schema: workspaceJob({ inboxId: uuidSchema }),
    options: {
      retryLimit: 9,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 3600,
      heartbeatSeconds: 10,
      expireInSeconds: 300,
    },
  }),
  /**
   * A broadcast, run batch after batch until its audience is done, paused or cancelled. The
   * worker beats every 5 s; a job whose worker stopped beating for 10 s is retried, and the
   * unique (broadcast_id, contact_id) key makes the rerun send nothing twice. A scheduled one
   * (startAfter) carries the instant it was scheduled for, and starts only if the broadcast is
   * still scheduled for that instant (lib/email/schedule-broadcast.ts). `scheduledAt` is
   * optional, so the jobs queued before it existed still read as version 1.
   */
  broadcast: defineQueue({
    name: "broadcast",
    version: 1,
    schema: workspaceJob({ broadcastId: uuidSchema, scheduledAt: z.iso.datetime().optional() }),
    options: {
      retryLimit: 20,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
      heartbeatSeconds: 10,
      expireInSeconds: 24 * 3600,
    },
  }),
  /**
   * An A/B broadcast's decision (lib/email/flows/decide-ab-test.ts), enqueued with startAfter its
   * decision time once the test share is sent. Decided once: the broadcast's row lock and its
   * ab_decided_at make a second run, or a retry after a crash, find nothing to do. A retry waits
   * for the test share's last rows still on their way.
   */
  "broadcast-ab-decision": defineQueue({
    name: "broadcast-ab-decision",
    version: 1,
    schema: workspaceJob({ broadcastId: uuidSchema }),
    options: {
      retryLimit: 20,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 600,
      heartbeatSeconds: 10,
      expireInSeconds: 600,
    },
  }),
  /**
   * An Eventbrite import and sync of one workspace (after connecting, and the manual re-sync):
   * fetched outside any transaction, written in one. Idempotent, so a rerun is harmless.
   */
  "ticketing-sync": defineQueue({
    name: "ticketing-sync",
    version: 1,
    schema: workspaceJob({}),
    options: {
      retryLimit: 4,
      retryDelay: 30,
      retryBackoff: true,
      retryDelayMax: 1800,
      heartbeatSeconds: 10,
      expireInSeconds: 3600,
    },
  }),
  /**
   * The payments backfill (spec 4.11, 4.12) started from the dashboard: the three phases the CLI
   * runs. Every step is repeatable, so a retry carries on where the last attempt stopped.
   */
  "payments-backfill": defineQueue({
    name: "payments-backfill",
    version: 1,
    schema: workspaceJob({}),
    options: {
      retryLimit: 2,
      retryDelay: 60,
      retryBackoff: true,
      heartbeatSeconds: 10,
      expireInSeconds: 6 * 3600,
    },
  }),
  /**
   * A dashboard CSV import above IMPORT_JOB_THRESHOLD_BYTES (docs/decisions.md, "Large imports
   * as a job"): the stored upload imported in one transaction that also marks it
   * done, so a retry after a crash starts from nothing (the previous attempt rolled back). A
   * worker that dies holding one frees it once 10 s pass without a heartbeat.
   */
  "contact-import": defineQueue({
    name: "contact-import",
    version: 1,
    schema: workspaceJob({ importId: uuidSchema }),
    options: {
      retryLimit: 2,
      retryDelay: 10,
      retryBackoff: true,
      heartbeatSeconds: 10,
      expireInSeconds: 3600,
    },
  }),
  /**
   * One email through Resend (lib/email/flows/deliver-email.ts), after the transaction that
   * recorded it committed. Eleven attempts, 5 s · 2^n with jitter between them (capped at an
   * hour, about three hours in all); the same idempotency key on every attempt, so an attempt
   * whose answer was lost sends nothing twice. After the last one the email is 'failed'.
   * Completed jobs go after a day: an account email's job carries its link until then, in
   * `html`/`text` (the stored copy has the link redacted); an account email has no workspace.
   */
  "email-send": defineQueue({
    name: "email-send",
    version: 1,
    schema: z.object({
      workspaceId: uuidSchema.nullable(),
      emailSendId: uuidSchema,
      html: z.string().optional(),
      text: z.string().optional(),
    }),
    options: {
      retryLimit: 10,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 3600,
      heartbeatSeconds: 10,
      expireInSeconds: 120,
      deleteAfterSeconds: 24 * 3600,
    },
  }),
  /**
   * A sending domain's status from Resend (docs/decisions.md, "Sending domains and warm-up"): one
   * domain of a workspace, or, without ids (the schedule), every domain whose status may still
   * change. Repeatable: a check only reads Resend and stores what it says.
   */
  "sending-domain-check": defineQueue({
    name: "sending-domain-check",
    version: 1,
    schema: z.object({ workspaceId: uuidSchema.optional(), sendingDomainId: uuidSchema.optional() }),
    options: { retryLimit: 3, retryDelay: 60, retryBackoff: true, expireInSeconds: 600 },
  }),
  /**
   * The campaign runner (docs/decisions.md, "Campaign waits as a due-time index"): claims the
   * due active enrollments in batches (FOR UPDATE SKIP LOCKED) and runs each one's steps in the
   * batch's transaction, with their effects and the enrollment's advance, so a worker killed
   * mid-batch leaves the batch to be run again, not run twice. Every minute, and kicked by an
   * enrollment, a publication or a resume (singletonKey "kick": at most one waits).
   */
  "campaign-sweep": defineQueue({
    name: "campaign-sweep",
    version: 1,
    schema: z.object({}),
    options: {
      retryLimit: 5,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
      heartbeatSeconds: 10,
      expireInSeconds: 3600,
    },
  }),
  /**
   * The campaign steps' queued emails, in batch calls of 100 (docs/decisions.md, "Campaign emails in
   * batches"; lib/campaigns/flows/deliver-campaign-emails.ts). Kicked by each runner batch that
   * queued emails and by the sweep while any wait (singletonKey "kick": at most one waits). A chunk's
   * key is its idempotency key, so a retried or resumed chunk is never sent twice.
   */
  "campaign-delivery": defineQueue({
    name: "campaign-delivery",
    version: 1,
    schema: z.object({}),
    options: {
      retryLimit: 10,
      retryDelay: 5,
      retryBackoff: true,
      retryDelayMax: 300,
      heartbeatSeconds: 10,
      expireInSeconds: 3600,
    },
  }),
  /**
   * Waitlist offers whose time ran out (lib/events/waitlist/flows/sweep-offers.ts): each is expired
   * and its seat offered to the next in line, under the event's lock. Every minute; repeatable.
   */
  "waitlist-offers-sweep": defineQueue({
    name: "waitlist-offers-sweep",
    version: 1,
    schema: z.object({}),
    options: { retryLimit: 3, retryDelay: 30, expireInSeconds: 600 },
  }),
  "sweep-rate-limit-hits": defineQueue({
    name: "sweep-rate-limit-hits",
    version: 1,
    schema: z.object({}),
    options: { retryLimit: 1, expireInSeconds: 300 },
  }),
  "sweep-pending-submissions": defineQueue({
    name: "sweep-pending-submissions",
    version: 1,
    schema: z.object({}),
    options: { retryLimit: 1, expireInSeconds: 300 },
  }),
  "sweep-webhook-inbox": defineQueue({
    name: "sweep-webhook-inbox",
    version: 1,
    schema: z.object({}),
    options: { retryLimit: 1, expireInSeconds: 300 },
  }),
};

export type QueueName = keyof typeof QUEUES;

/** A queue's payload as an enqueuer writes it. */
export type PayloadOf<Q extends QueueName> = z.input<(typeof QUEUES)[Q]["schema"]>;

/** A queue's payload as its handler reads it, once the worker checked it against the contract. */
export type CheckedPayloadOf<Q extends QueueName> = z.output<(typeof QUEUES)[Q]["schema"]>;

/** The scheduled sweeps (cron in UTC, run by whichever worker's pg-boss takes the minute). */
export const SCHEDULES: { queue: QueueName; cron: string }[] = [
  { queue: "sweep-rate-limit-hits", cron: "*/10 * * * *" },
  { queue: "campaign-sweep", cron: "* * * * *" },
  { queue: "sweep-pending-submissions", cron: "17 * * * *" },
  { queue: "sweep-webhook-inbox", cron: "43 3 * * *" },
  { queue: "sending-domain-check", cron: "*/10 * * * *" },
  { queue: "waitlist-offers-sweep", cron: "* * * * *" },
];
