import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import {
  broadcastProgress,
  claimBroadcastBatch,
  deliverBroadcastBatch,
  recordBroadcastDelivery,
  type BroadcastProgress,
} from "../send-broadcast";

/** Runs a function in its own transaction (withUser or withService bound to an identity). */
export type TxRunner = <T>(fn: (db: Db) => Promise<T>) => Promise<T>;

/** One step of a broadcast: claim a batch, deliver it, record the outcome, report progress. Call until done. */
export async function sendBroadcastBatch(
  run: TxRunner,
  input: { workspaceId: string; broadcastId: string; batchSize?: number },
): Promise<Result<BroadcastProgress>> {
  const claim = await run((db) => claimBroadcastBatch(db, input));
  if ("error" in claim) return claim;
  if (claim.queued.length) {
    const delivery = await deliverBroadcastBatch(input.broadcastId, claim.queued);
    await run((db) => recordBroadcastDelivery(db, delivery));
  }
  const progress = await run((db) => broadcastProgress(db, input));
  return progress ? { data: progress } : refused("not_found", "Broadcast not found.");
}
