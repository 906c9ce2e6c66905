import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { enqueue } from "@/lib/jobs/enqueue";
import { writeBroadcast } from "./broadcast-door";

/** How far ahead a broadcast may be scheduled, and how soon: a time already past is refused. */
const MAX_AHEAD_DAYS = 365;

export const scheduleSchema = z.object({
  at: z.coerce
    .date({ error: "Choose a date and time." })
    .refine((at) => at.getTime() > Date.now(), "Choose a time in the future.")
    .refine((at) => at.getTime() < Date.now() + MAX_AHEAD_DAYS * 86_400_000, "Schedule it within a year."),
});

/**
 * The law wants a postal address in every marketing email: a broadcast written in the branded
 * layout is not scheduled or started before the workspace has one (the email settings page).
 */
export async function refuseWithoutPostalAddress(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
) {
  const [row] = await db<{ branded: boolean; postal_address: string | null }[]>`
    select b.body_markdown is not null as branded, w.postal_address
    from public.broadcasts b join public.workspaces w on w.id = b.workspace_id
    where b.id = ${input.broadcastId} and b.workspace_id = ${input.workspaceId}`;
  if (row?.branded && !row.postal_address?.trim())
    throw new AppError(
      "invalid",
      "Add your postal address in Settings → Email before sending: the law wants it in every marketing email.",
    );
}

/**
 * Schedules a draft, or moves a scheduled broadcast to another time (docs/decisions.md, "Email
 * templates and scheduled broadcasts"): the state and time change and a delayed job (startAfter)
 * carrying that time is enqueued in the same transaction. A job whose time is no longer the
 * broadcast's finds nothing to start (startScheduledBroadcast), so a reschedule cannot send twice.
 * Answers false when the broadcast is neither a draft nor scheduled (it started meanwhile).
 */
export async function scheduleBroadcast(
  db: Db,
  input: { workspaceId: string; broadcastId: string; at: Date },
): Promise<boolean> {
  if (!isUuid(input.broadcastId)) return false;
  await refuseWithoutPostalAddress(db, input);
  const at = new Date(Math.floor(input.at.getTime() / 1000) * 1000); // whole seconds: job and row agree
  const [row] = await db`
    update public.broadcasts set status = 'scheduled', scheduled_at = ${at}
    where id = ${input.broadcastId} and workspace_id = ${input.workspaceId}
      and status in ('draft', 'scheduled')
    returning id`;
  if (!row) return false;
  await enqueue(db, {
    queue: "broadcast",
    data: { workspaceId: input.workspaceId, broadcastId: input.broadcastId, scheduledAt: at.toISOString() },
    options: { startAfter: at, singletonKey: `broadcast:${input.broadcastId}:${at.toISOString()}` },
  });
  return true;
}

/** Back to a draft: its job, when its time comes, finds the broadcast no longer scheduled. */
export async function unscheduleBroadcast(
  db: Db,
  input: { workspaceId: string; broadcastId: string },
): Promise<boolean> {
  if (!isUuid(input.broadcastId)) return false;
  const [row] = await writeBroadcast(
    db,
    input.workspaceId,
    () => db`
      update public.broadcasts set status = 'draft', scheduled_at = null
      where id = ${input.broadcastId} and workspace_id = ${input.workspaceId} and status = 'scheduled'
      returning id`,
  );
  return Boolean(row);
}

/**
 * The scheduled job's start, under the broadcast's row lock: 'scheduled' for exactly this job's
 * time becomes 'sending'; already 'sending' for this time is this job's own retry after a crash
 * (it carries on). Anything else (rescheduled, unscheduled, cancelled) answers false: the job
 * ends without sending.
 */
export async function startScheduledBroadcast(
  db: Db,
  input: { workspaceId: string; broadcastId: string; scheduledAt: string },
): Promise<boolean> {
  const [row] = await db<{ status: string; due: boolean }[]>`
    select status, scheduled_at = ${input.scheduledAt}::timestamptz as due
    from public.broadcasts
    where id = ${input.broadcastId} and workspace_id = ${input.workspaceId}
    for update`;
  if (!row?.due) return false;
  if (row.status === "sending") return true;
  if (row.status !== "scheduled") return false;
  await db`update public.broadcasts set status = 'sending' where id = ${input.broadcastId}`;
  return true;
}
