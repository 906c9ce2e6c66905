import { isUuid } from "@/lib/ids/uuid";
import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";
import { refuseWithoutPostalAddress } from "./schedule-broadcast";

export const broadcastControlSchema = z.enum(["start", "pause", "resume", "cancel"]);
export type BroadcastControl = z.infer<typeof broadcastControlSchema>;

/** From which states each control moves the broadcast, and where to. */
const TRANSITIONS: Record<BroadcastControl, { from: string[]; to: string; enqueue: boolean }> = {
  start: { from: ["draft"], to: "sending", enqueue: true },
  pause: { from: ["sending"], to: "paused", enqueue: false },
  resume: { from: ["paused"], to: "sending", enqueue: true },
  cancel: { from: ["draft", "scheduled", "sending", "paused"], to: "cancelled", enqueue: false },
};

/**
 * Start, pause, resume or cancel a broadcast (docs/decisions.md, "Broadcasts"). Start and resume enqueue the
 * broadcast job in the same transaction as the state change; pause and cancel only change the state, which
 * the running job reads before each batch. A control that does not apply to the current state
 * (or to a broadcast of another workspace) changes nothing and answers false.
 */
export async function controlBroadcast(
  db: Db,
  input: { workspaceId: string; broadcastId: string; control: BroadcastControl },
): Promise<boolean> {
  if (!isUuid(input.broadcastId)) return false;
  const t = TRANSITIONS[input.control];
  if (input.control === "start") await refuseWithoutPostalAddress(db, input);
  const [row] = await db`
    update public.broadcasts
    set status = ${t.to}, paused_reason = null, pause_kind = null,
        reputation_override = reputation_override or (${input.control} = 'resume' and pause_kind is not distinct from 'reputation')
    where id = ${input.broadcastId} and workspace_id = ${input.workspaceId} and status = any(${t.from}::text[])
    returning id`;
  if (!row) return false;
  if (t.enqueue)
    await enqueue(db, {
      queue: "broadcast",
      data: { workspaceId: input.workspaceId, broadcastId: input.broadcastId },
    });
  return true;
}
