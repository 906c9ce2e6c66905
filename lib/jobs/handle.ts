import type { JobResult, JobWithMetadata } from "pg-boss";
import type { z } from "zod";
import { UNVERSIONED, VERSION_KEY, type QueueContract } from "./contract";
import type { JobOutcome } from "./outcome";
import type { QueueName } from "./queues";

/**
 * A job whose payload its contract refuses: running it again cannot help, so the worker fails it
 * at once, without retries, with this message on the job (the jobs page shows it).
 */
export class JobPayloadError extends Error {
  override name = "JobPayloadError";
}

/** A queue's handler as the worker calls it: checks the job against its contract, then runs it. */
export type JobHandler<Q extends string = string> = ((
  job: JobWithMetadata<unknown>,
) => Promise<JobOutcome>) & {
  queue: Q;
};

/** The worker's composition root: one handler for each queue, bound to that queue's contract. */
export type JobRegistry = { [Q in QueueName]: JobHandler<Q> };

const describeIssues = (error: z.ZodError) =>
  error.issues.map((issue) => `${issue.path.join(".") || "payload"}: ${issue.message}`).join("; ");

/**
 * A job's payload, checked against its queue's contract. A job of an older version than the
 * contract, or whose payload the schema refuses, is a JobPayloadError (failed at once). A job of
 * a newer version was enqueued by a newer release while this worker still runs: a plain error,
 * so the job is retried and a newer worker takes it.
 */
export function readPayload<S extends z.ZodType>(
  contract: QueueContract<string, S>,
  data: unknown,
): z.output<S> {
  const version = (data as Record<string, unknown> | null)?.[VERSION_KEY] ?? UNVERSIONED;
  const named = `The '${contract.name}' job`;
  if (typeof version !== "number" || !Number.isInteger(version) || version < contract.version)
    throw new JobPayloadError(
      `${named} has payload version ${String(version)}; this worker reads version ${contract.version} only.`,
    );
  if (version > contract.version)
    throw new Error(
      `${named} has payload version ${version}, newer than this worker's ${contract.version}: left to a newer worker.`,
    );
  const parsed = contract.schema.safeParse(data);
  if (!parsed.success)
    throw new JobPayloadError(
      `${named}'s payload does not match its contract (version ${contract.version}): ${describeIssues(parsed.error)}`,
    );
  return parsed.data;
}

/** Binds a contract to what its jobs do: the handler gets the payload as the contract types it. */
export function handle<Name extends QueueName, S extends z.ZodType>(
  contract: QueueContract<Name, S>,
  run: (data: z.output<S>, job: JobWithMetadata<unknown>) => Promise<JobOutcome>,
): JobHandler<Name> {
  const handler = (job: JobWithMetadata<unknown>) => run(readPayload(contract, job.data), job);
  return Object.assign(handler, { queue: contract.name });
}

/**
 * One job's outcome for pg-boss (a perJobResults worker), the one place an outcome becomes the
 * engine's (docs/decisions.md, "One job outcome"): `done` completes the job with its output;
 * `retry` fails the attempt, which pg-boss retries per the queue's policy; `failed`, and a payload
 * its contract refuses, fail the job at once ('deadletter': no retry). Anything thrown is an
 * unexpected failure of the attempt: logged, and retried like `retry` with the code `internal`.
 */
export async function settleJob(handler: JobHandler, job: JobWithMetadata<unknown>): Promise<JobResult> {
  let outcome: JobOutcome;
  try {
    outcome = await handler(job);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    outcome =
      error instanceof JobPayloadError
        ? { status: "failed", code: "invalid", message }
        : { status: "retry", code: "internal", message };
    if (outcome.status === "retry") console.error(`jobs: ${job.name} ${job.id}:`, error);
  }
  if (outcome.status === "done") return { id: job.id, status: "completed", output: outcome.output };
  if (outcome.status === "failed") console.error(`jobs: ${job.name} ${job.id}: ${outcome.message}`);
  const output = { code: outcome.code, message: outcome.message };
  return { id: job.id, status: outcome.status === "failed" ? "deadletter" : "failed", output };
}
