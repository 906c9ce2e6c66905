"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import type { ActionResult } from "@/lib/adapters/action-result";
import { memberAction } from "@/lib/adapters/member-action";
import type { AuditAction } from "@/lib/audit/audit-actions";
import { broadcastSchema, createBroadcast, getBroadcast } from "@/lib/email/broadcasts";
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

/** The compose form: its flat fields as broadcastSchema's subject, body and audience. */
const broadcastForm = z.preprocess((raw) => {
  const form = raw as Record<string, unknown>;
  return {
    subject: form.subject ?? "",
    body: form.body ?? "",
    audience: {
      tagIds: list(form.tagIds),
      tagMode: form.tagMode,
      excludeTagIds: list(form.excludeTagIds),
      source: form.source,
      segmentId: form.segmentId,
    },
  };
}, broadcastSchema);

export const createBroadcastAction = memberAction(
  broadcastForm,
  async (db, broadcast, ctx): Promise<FormState> => {
    const { id } = await createBroadcast(db, {
      ...broadcast,
      workspaceId: ctx.workspaceId,
      createdBy: ctx.userId,
    });
    ctx.audit
      .target("broadcast", id)
      .change(null, { subject: broadcast.subject, audience: broadcast.audience });
    return {};
  },
  { audit: "broadcast.created", after: (_r, _i, ctx) => redirect(`/broadcasts/${ctx.audit.targetId}`) },
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
