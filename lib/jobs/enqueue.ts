import type { SendOptions } from "pg-boss";
import type { Db } from "@/lib/db/doors";
import { transactionDb } from "./boss-db";
import { VERSION_KEY, type QueueContract } from "./contract";
import { producer } from "./producer";
import { QUEUES, type PayloadOf, type QueueName } from "./queues";

/** One job to enqueue: its queue, a payload of that queue's contract, pg-boss's send options. */
export interface JobRequest<Q extends QueueName> {
  queue: Q;
  data: PayloadOf<Q>;
  options?: Omit<SendOptions, "db">;
}

/**
 * Enqueues a job in the caller's transaction: it exists if and only if the transaction commits,
 * so a change and the work it causes are never separated by a crash. The payload is typed and
 * checked by the queue's contract and stored with the contract's version. Returns the job id, or
 * null when a singletonKey already has a job waiting.
 */
export async function enqueue<Q extends QueueName>(db: Db, job: JobRequest<Q>): Promise<string | null> {
  const contract: QueueContract = QUEUES[job.queue];
  const data = { ...(contract.schema.parse(job.data) as object), [VERSION_KEY]: contract.version };
  const boss = await producer();
  return boss.send(job.queue, data, { ...job.options, db: transactionDb(db) });
}
