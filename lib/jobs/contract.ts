import type { Queue } from "pg-boss";
import type { z } from "zod";

/**
 * A queue's contract (docs/decisions.md, "Jobs with contracts"): its name, the shape of its
 * payload, the version of that shape and its retry policy. It holds no handler, so an area
 * imports it to enqueue without importing any other area; the worker binds each contract to
 * its handler in its own composition root (worker/registry.ts).
 */
export interface QueueContract<Name extends string = string, Schema extends z.ZodType = z.ZodType> {
  name: Name;
  /**
   * The payload shape's version, recorded on every job (VERSION_KEY). Raise it when a change to
   * the schema would refuse the jobs already queued: the worker then tells an old job from a
   * broken one.
   */
  version: number;
  schema: Schema;
  /** pg-boss's queue options: retries, backoff, heartbeat, expiry. */
  options: Omit<Queue, "name">;
}

export function defineQueue<const Name extends string, Schema extends z.ZodType>(
  contract: QueueContract<Name, Schema>,
): QueueContract<Name, Schema> {
  return contract;
}

/** The key under which a job's data carries its contract's version (beside the payload). */
export const VERSION_KEY = "jobVersion";

/**
 * A job enqueued before versions were recorded carries none: its shape is version 1, the
 * contracts' first.
 */
export const UNVERSIONED = 1;
