"use server";

import { redirect } from "next/navigation";
import { requireMember, withMember } from "@/lib/auth/context";
import { withService, withUser } from "@/lib/db/doors";
import { broadcastSchema, createBroadcast, getBroadcast } from "@/lib/email/broadcasts";
import {
  broadcastControlSchema,
  controlBroadcast,
  type BroadcastControl,
} from "@/lib/email/control-broadcast";
import { broadcastProgress, type BroadcastProgress } from "@/lib/email/send-broadcast";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { isUuid } from "@/lib/ids/uuid";

export async function createBroadcastAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = { subject: String(form.get("subject") ?? ""), body: String(form.get("body") ?? "") };
  const parsed = broadcastSchema.safeParse({
    ...values,
    audience: {
      tagIds: form.getAll("tagIds").map(String),
      tagMode: form.get("tagMode") ?? undefined,
      excludeTagIds: form.getAll("excludeTagIds").map(String),
      source: form.get("source") ?? undefined,
    },
  });
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const { id } = await withMember((db, ctx) =>
    createBroadcast(db, { ...parsed.data, workspaceId: ctx.workspace.workspaceId, createdBy: ctx.userId }),
  );
  redirect(`/broadcasts/${id}`);
}

/**
 * Start, pause, resume or cancel (issue 14): the broadcast runs as a job on a worker, so closing
 * the page does not stop it. Authorised as a member of the workspace (any role may send, as
 * before); the change itself runs as the service because it enqueues the job, and is bounded to
 * the member's own workspace by controlBroadcast.
 */
export async function controlBroadcastAction(
  broadcastId: string,
  control: BroadcastControl,
): Promise<{ data: BroadcastProgress } | { error: string }> {
  if (!isUuid(broadcastId) || !broadcastControlSchema.safeParse(control).success)
    return { error: "Broadcast not found." };
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const visible = await withUser(ctx.claims, (db) => getBroadcast(db, { workspaceId, broadcastId }));
  if (!visible) return { error: "Broadcast not found." };
  const changed = await withService((db) => controlBroadcast(db, { workspaceId, broadcastId, control }));
  const progress = await withUser(ctx.claims, (db) => broadcastProgress(db, { workspaceId, broadcastId }));
  if (!progress) return { error: "Broadcast not found." };
  return changed
    ? { data: progress }
    : { error: "The broadcast has moved on meanwhile; the page shows where it is." };
}

/** The progress as the database has it, for the page to show while the job runs. */
export async function broadcastProgressAction(
  broadcastId: string,
): Promise<{ data: BroadcastProgress } | { error: string }> {
  if (!isUuid(broadcastId)) return { error: "Broadcast not found." };
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const progress = await withUser(ctx.claims, (db) => broadcastProgress(db, { workspaceId, broadcastId }));
  return progress ? { data: progress } : { error: "Broadcast not found." };
}
