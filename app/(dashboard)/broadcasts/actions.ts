"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { LOCALES } from "@/lib/i18n/locales";
import type { ActionResult } from "@/lib/adapters/action-result";
import { memberAction } from "@/lib/adapters/member-action";
import type { AuditAction } from "@/lib/audit/audit-actions";
import { resolveTopicIds } from "@/lib/consent/topics";
import {
  broadcastSchema,
  composeBroadcast,
  createBroadcast,
  duplicateBroadcast,
  getBroadcast,
  updateBroadcast,
} from "@/lib/email/broadcasts";
import { renderForRecipient } from "@/lib/email/email-template";
import { broadcastSenderOf, fromNameSchema, replyToSchema } from "@/lib/email/from-address";
import { abTestSchema, saveAbTest, type AbTest } from "@/lib/email/ab-test";
import { scheduleBroadcast, scheduleSchema, unscheduleBroadcast } from "@/lib/email/schedule-broadcast";
import { memberSample, sendTestBroadcast, testSendAllowed, TOO_MANY_TESTS } from "@/lib/email/test-send";
import { withService, type Db } from "@/lib/db/doors";
import {
  broadcastControlSchema,
  controlBroadcast,
  type BroadcastControl,
} from "@/lib/email/control-broadcast";
import { broadcastProgress, type BroadcastProgress } from "@/lib/email/send-broadcast";
import { AppError } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { ROLES } from "@/lib/workspaces/schemas";

const NOT_FOUND = "Broadcast not found.";
const broadcastId = uuidField(NOT_FOUND);
type Progress = ActionResult<BroadcastProgress>;

/** A checkbox group's values: absent, one (a string) or several. */
const list = (value: unknown) => (value === undefined ? [] : [value].flat());

/** The compose form's flat fields as broadcastSchema's subject, body, format and audience. */
const formFields = (raw: unknown) => {
  const form = raw as Record<string, unknown>;
  return {
    subject: form.subject ?? "",
    body: form.body ?? "",
    format: form.format,
    audience: {
      tagIds: list(form.tagIds),
      tagMode: form.tagMode,
      excludeTagIds: list(form.excludeTagIds),
      source: form.source,
      topicId: form.topicId || undefined,
      segmentId: form.segmentId,
    },
    fromName: form.fromName ?? "",
    fromLocal: form.fromLocal ?? "",
    fromDomain: form.fromDomain ?? "",
    replyTo: form.replyTo ?? "",
    translations: translationFields(form),
    ...abFields(form),
  };
};

/** "Other languages": translationSubject_<code> and translationBody_<code>; a language left empty is none. */
function translationFields(form: Record<string, unknown>) {
  const out: Record<string, { subject: unknown; body: unknown }> = {};
  for (const code of LOCALES) {
    const subject = form[`translationSubject_${code}`];
    const body = form[`translationBody_${code}`];
    const written = (v: unknown) => typeof v === "string" && v.trim() !== "";
    if (written(subject) || written(body)) out[code] = { subject: subject ?? "", body: body ?? "" };
  }
  return out;
}

/**
 * The composer's A/B section (docs/decisions.md, "A/B tests of broadcasts"), when switched on: the
 * variant rows it shows (abSubject0…abSubject4 with their preheader and sender name), the test
 * share, the metric and the hours. Each is a top-level field, so its error shows beside it.
 */
function abFields(form: Record<string, unknown>) {
  if (!form.abEnabled) return {};
  const variants = [0, 1, 2, 3, 4, 5]
    .filter((i) => typeof form[`abSubject${i}`] === "string")
    .map((i) => ({
      subject: form[`abSubject${i}`],
      preheader: form[`abPreheader${i}`] ?? "",
      senderName: form[`abSenderName${i}`] ?? "",
    }));
  const number = (value: unknown) => (value === undefined || value === "" ? undefined : Number(value));
  return {
    abVariants: variants,
    abShare: number(form.abShare),
    abMetric: form.abMetric,
    abHours: number(form.abHours),
  };
}
const abFormSchema = {
  abVariants: abTestSchema.shape.variants.optional(),
  abShare: abTestSchema.shape.share.optional(),
  abMetric: abTestSchema.shape.metric.optional(),
  abHours: abTestSchema.shape.decideAfterHours.optional(),
};
/** The form's A/B fields as a test, or null when the section is off; a missing setting is refused beside it. */
function abTestOf(form: {
  abVariants?: AbTest["variants"];
  abShare?: number;
  abMetric?: AbTest["metric"];
  abHours?: number;
}): AbTest | null {
  if (!form.abVariants) return null;
  if (form.abShare === undefined)
    throw new AppError("invalid", "The test share is 10 to 50 percent of the audience.", {
      field: "abShare",
    });
  if (!form.abMetric)
    throw new AppError("invalid", "Choose opens, clicks or revenue.", { field: "abMetric" });
  if (form.abHours === undefined)
    throw new AppError("invalid", "Decide after 1 to 168 hours (a week).", { field: "abHours" });
  return {
    variants: form.abVariants,
    share: form.abShare,
    metric: form.abMetric,
    decideAfterHours: form.abHours,
  };
}

/**
 * The composer's Sender section (docs/decisions.md, "Sending domains and warm-up"): a From of the
 * broadcast's own (name, local part, one of the workspace's verified domains) and a reply-to, each
 * optional; empty falls back to the workspace's.
 */
const senderFormSchema = {
  fromName: fromNameSchema,
  fromLocal: z.string().max(200, "Keep the part before the @ under 64 characters."),
  fromDomain: z.string().max(300, "Choose one of your verified domains."),
  replyTo: replyToSchema,
};
/** The Sender section checked against the workspace's verified domains, before anything is written. */
const senderOf = (
  db: Db,
  workspaceId: string,
  form: { fromName: string | null; fromLocal: string; fromDomain: string; replyTo: string | null },
) =>
  broadcastSenderOf(db, workspaceId, {
    name: form.fromName,
    local: form.fromLocal.trim(),
    domain: form.fromDomain,
    replyTo: form.replyTo,
    fields: { name: "fromName", local: "fromLocal", domain: "fromDomain" },
  });

const broadcastForm = z.preprocess(
  formFields,
  broadcastSchema.extend({ ...abFormSchema, ...senderFormSchema }),
);
/** The same form editing a draft: its id bound first. */
const broadcastEditForm = z.preprocess(
  (raw) => ({ ...formFields(raw), broadcastId: (raw as Record<string, unknown>).broadcastId }),
  broadcastSchema.extend({ broadcastId, ...abFormSchema, ...senderFormSchema }),
);

/** A topic named by the form must be one of the workspace's (docs/decisions.md, "Subscription topics"). */
async function refuseForeignTopic(db: Db, workspaceId: string, topicId: string | undefined) {
  if (topicId && !(await resolveTopicIds(db, workspaceId, [topicId])).length)
    throw new AppError("invalid", "Choose one of this workspace's topics.", { field: "topicId" });
}

export const createBroadcastAction = memberAction(
  broadcastForm,
  async (db, broadcast, ctx): Promise<FormState> => {
    await refuseForeignTopic(db, ctx.workspaceId, broadcast.audience.topicId);
    const abTest = abTestOf(broadcast);
    const sender = await senderOf(db, ctx.workspaceId, broadcast);
    const { id } = await createBroadcast(db, {
      ...broadcast,
      sender,
      workspaceId: ctx.workspaceId,
      createdBy: ctx.userId,
    });
    if (abTest) await saveAbTest(db, { workspaceId: ctx.workspaceId, broadcastId: id, abTest });
    ctx.audit
      .target("broadcast", id)
      .change(null, { subject: broadcast.subject, audience: broadcast.audience });
    return {};
  },
  { audit: "broadcast.created", after: (_r, _i, ctx) => redirect(`/broadcasts/${ctx.audit.targetId}`) },
);

/** A draft edited in the same form; a broadcast that left the draft state is not changed. */
export const updateBroadcastAction = memberAction(
  broadcastEditForm,
  async (db, { broadcastId, ...broadcast }, ctx): Promise<FormState> => {
    await refuseForeignTopic(db, ctx.workspaceId, broadcast.audience.topicId);
    const abTest = abTestOf(broadcast);
    const sender = await senderOf(db, ctx.workspaceId, broadcast);
    const changed = await updateBroadcast(db, {
      ...broadcast,
      sender,
      broadcastId,
      workspaceId: ctx.workspaceId,
    });
    if (!changed) throw new AppError("conflict", "Only a draft can be edited; this one has moved on.");
    await saveAbTest(db, { workspaceId: ctx.workspaceId, broadcastId, abTest });
    ctx.audit
      .target("broadcast", broadcastId)
      .change(null, { subject: broadcast.subject, audience: broadcast.audience });
    return {};
  },
  {
    audit: "broadcast.updated",
    args: ["broadcastId"],
    after: (_r, { broadcastId }) => redirect(`/broadcasts/${broadcastId}`),
  },
);

/** The editor's live preview: the Markdown in the branded layout, merge tags filled with the member's own name. */
export const previewTemplateAction = memberAction(
  z.object({ body: z.string().max(50_000, "Keep the message under 50,000 characters.") }),
  async (db, { body }, ctx): Promise<ActionResult<{ html: string }>> => {
    const parts = await composeBroadcast(db, { workspaceId: ctx.workspaceId, body, format: "markdown" });
    const sample = await memberSample(db, ctx.userId);
    return {
      data: { html: renderForRecipient({ html: parts.body_html, text: parts.body_text }, sample).html },
    };
  },
  { audit: false }, // a read: nothing is stored
);

/** "Duplicate": a draft copy of the broadcast, opened at once. */
export const duplicateBroadcastAction = memberAction(
  z.object({ broadcastId }),
  async (db, { broadcastId }, ctx): Promise<FormState> => {
    const copy = await duplicateBroadcast(db, {
      workspaceId: ctx.workspaceId,
      broadcastId,
      createdBy: ctx.userId,
    });
    if (!copy) throw new AppError("not_found", NOT_FOUND);
    ctx.audit.target("broadcast", copy.id).change(null, { duplicated_from: broadcastId });
    return {};
  },
  {
    audit: "broadcast.duplicated",
    args: ["broadcastId"],
    after: (_r, _i, ctx) => redirect(`/broadcasts/${ctx.audit.targetId}`),
  },
);

/**
 * Schedule or reschedule (docs/decisions.md, "Email templates and scheduled broadcasts"): the state
 * and the delayed job change in one transaction. As the service (it enqueues), scoped to the
 * member's workspace, like start.
 */
export const scheduleBroadcastAction = memberAction(
  scheduleSchema.extend({ broadcastId }),
  async (db, { broadcastId, at }, ctx): Promise<Progress & { changed?: boolean }> => {
    const workspaceId = ctx.workspaceId;
    const before = await getBroadcast(db, { workspaceId, broadcastId });
    if (!before) throw new AppError("not_found", NOT_FOUND);
    if (!(await scheduleBroadcast(db, { workspaceId, broadcastId, at })))
      throw new AppError("conflict", "The broadcast has moved on meanwhile; the page shows where it is.");
    ctx.audit
      .target("broadcast", broadcastId)
      .change(
        { status: before.status, scheduled_at: before.scheduled_at },
        { status: "scheduled", scheduled_at: at },
      );
    return { data: (await broadcastProgress(db, { workspaceId, broadcastId }))!, changed: true };
  },
  { roles: ROLES, door: "service", args: ["broadcastId", "at"], audit: "broadcast.scheduled" },
);

export const unscheduleBroadcastAction = memberAction(
  z.object({ broadcastId }),
  async (db, { broadcastId }, ctx): Promise<Progress> => {
    const workspaceId = ctx.workspaceId;
    if (!(await unscheduleBroadcast(db, { workspaceId, broadcastId })))
      throw new AppError("conflict", "The broadcast is no longer scheduled; the page shows where it is.");
    ctx.audit.target("broadcast", broadcastId).change({ status: "scheduled" }, { status: "draft" });
    return { data: (await broadcastProgress(db, { workspaceId, broadcastId }))! };
  },
  { args: ["broadcastId"], audit: "broadcast.unscheduled" },
);

/** "Send a test to me": to the member's own address only, counted against their hourly limit. */
export const sendTestBroadcastAction = memberAction(
  z.object({ broadcastId }),
  async (db, { broadcastId }, ctx): Promise<ActionResult<{ to: string }>> => {
    const sent = await sendTestBroadcast(db, {
      workspaceId: ctx.workspaceId,
      broadcastId,
      userId: ctx.userId,
    });
    ctx.audit.target("broadcast", broadcastId).change(null, { test_to: sent.to });
    return { data: { to: sent.to } };
  },
  {
    args: ["broadcastId"],
    audit: "broadcast.test_sent",
    before: async (_input, ctx) => {
      if (!(await withService((db) => testSendAllowed(db, ctx.userId))))
        throw new AppError("rate_limited", TOO_MANY_TESTS);
    },
  },
);

const CONTROL_AUDIT: Record<BroadcastControl, AuditAction> = {
  start: "broadcast.started",
  pause: "broadcast.paused",
  resume: "broadcast.resumed",
  cancel: "broadcast.cancelled",
};

/**
 * Start, pause, resume or cancel (docs/decisions.md, "Broadcasts"): the broadcast runs as a job on a worker,
 * so closing the page does not stop it. Any member of the workspace may send (as before); the change runs
 * as the service because it enqueues the job, every query scoped to the member's workspace.
 */
export const controlBroadcastAction = memberAction(
  z.object({ broadcastId, control: z.enum(broadcastControlSchema.options, { error: NOT_FOUND }) }),
  async (db, { broadcastId, control }, ctx): Promise<Progress & { changed?: boolean }> => {
    const workspaceId = ctx.workspaceId;
    const before = await getBroadcast(db, { workspaceId, broadcastId });
    if (!before) throw new AppError("not_found", NOT_FOUND);
    // a pause for the workspace's reputation is the owner's to lift (docs/decisions.md, "A broadcast
    // pauses itself for its workspace's reputation")
    if (control === "resume" && before.pause_kind === "reputation" && ctx.workspace.role !== "owner")
      throw new AppError(
        "forbidden",
        "Only an owner can resume a broadcast paused to protect the workspace's sending reputation.",
      );
    const changed = await controlBroadcast(db, { workspaceId, broadcastId, control });
    const progress = await broadcastProgress(db, { workspaceId, broadcastId });
    if (!progress) throw new AppError("not_found", NOT_FOUND);
    if (!changed)
      throw new AppError("conflict", "The broadcast has moved on meanwhile; the page shows where it is.");
    ctx.audit.target("broadcast", broadcastId).change({ status: before.status }, { status: progress.status });
    return { data: progress, changed };
  },
  {
    roles: ROLES,
    door: "service",
    args: ["broadcastId", "control"],
    audit: ({ control }, result) => (result.changed ? CONTROL_AUDIT[control] : null),
  },
);

/** The progress as the database has it, for the page to show while the job runs. */
export const broadcastProgressAction = memberAction(
  z.object({ broadcastId }),
  async (db, { broadcastId }, ctx): Promise<Progress> => {
    const progress = await broadcastProgress(db, { workspaceId: ctx.workspaceId, broadcastId });
    if (!progress) throw new AppError("not_found", NOT_FOUND);
    return { data: progress };
  },
  { audit: false, args: ["broadcastId"] }, // a read, polled while the job runs
);
