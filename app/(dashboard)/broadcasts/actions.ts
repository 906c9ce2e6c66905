"use server";

import { redirect } from "next/navigation";
import { requireMember, withMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { broadcastSchema, createBroadcast } from "@/lib/email/broadcasts";
import { sendBroadcastBatch, type BroadcastProgress } from "@/lib/email/send-broadcast";
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

/** One batch of the broadcast; the page calls it until `done`, showing the progress. */
export async function sendBroadcastBatchAction(
  broadcastId: string,
): Promise<{ data: BroadcastProgress } | { error: string }> {
  if (!isUuid(broadcastId)) return { error: "Broadcast not found." };
  // each phase runs in its own short transaction (the delivery happens between them), so no
  // transaction is held open here: PGlite's single connection would deadlock on a nested one
  const ctx = await requireMember();
  return sendBroadcastBatch((fn) => withUser(ctx.claims, fn), {
    workspaceId: ctx.workspace.workspaceId,
    broadcastId,
  });
}
