import type { AppErrorCode, Result } from "@/lib/errors/app-error";

/**
 * What one attempt of a job came to (docs/decisions.md, "One job outcome"): every job's flow
 * returns one, and the worker maps it to the engine once (lib/jobs/handle.ts, settleJob):
 * - `done`: the job is complete, with `output` stored on it;
 * - `retry`: this attempt failed and another may succeed; the engine retries on the queue's
 *   policy and, past its last attempt, leaves the job failed;
 * - `failed`: no attempt can succeed; the job fails at once, without retries.
 * A failure names its code (lib/errors/app-error.ts): callers compare codes, never messages.
 */
export type JobOutcome<T = unknown> =
  | { status: "done"; output?: T }
  | { status: "retry"; code: AppErrorCode; message: string }
  | { status: "failed"; code: AppErrorCode; message: string };

export const done = <T>(output?: T): JobOutcome<T> => ({ status: "done", output });

export const retry = (code: AppErrorCode, message: string): JobOutcome<never> => ({
  status: "retry",
  code,
  message,
});

export const failed = (code: AppErrorCode, message: string): JobOutcome<never> => ({
  status: "failed",
  code,
  message,
});

/**
 * A domain result as a job's outcome: its data is done; a refusal whose code is in `doneOn` means
 * there is nothing to do (done, with no output); any other refusal is retried.
 */
export function outcomeOf<T>(result: Result<T>, doneOn: readonly AppErrorCode[] = []): JobOutcome<T> {
  if ("data" in result) return done(result.data);
  if (doneOn.includes(result.error.code)) return done();
  return retry(result.error.code, result.error.message);
}
