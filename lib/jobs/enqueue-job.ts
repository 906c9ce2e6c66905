import type { SendOptions } from "pg-boss";
import type { Db } from "@/lib/db/doors";
import { transactionDb } from "./boss-db";
import { producer } from "./producer";
import type { QueueName, WorkspaceJob } from "./queues";

/**
 * Enqueues a job in the caller's transaction: it exists if and only if the transaction commits,
 * so a change and the work it causes are never separated by a crash. Returns the job id, or
 * null when a singletonKey already has a job waiting.
 */
export async function enqueueJob(
  db: Db,
  queue: QueueName,
  data: WorkspaceJob & Record<string, unknown>,
  options: Omit<SendOptions, "db"> = {},
): Promise<string | null> {
  const boss = await producer();
  return boss.send(queue, data, { ...options, db: transactionDb(db) });
}
