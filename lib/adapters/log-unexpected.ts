import { randomUUID } from "node:crypto";
import { databaseUnavailable, UNAVAILABLE_RETRY_AFTER_SECONDS } from "@/lib/db/unavailable";
import { AppError } from "@/lib/errors/app-error";
import { currentRequestId, log } from "@/lib/observability/log";

/**
 * Logs an unexpected error once, with the request's id (x-request-id, lib/observability/log.ts)
 * or a short new one outside a request; the caller is shown it ("reference …"), so a support
 * request can be matched with the log line. Expected errors (AppError) are not logged: they are
 * answers, not faults.
 */
export function logUnexpected(where: string, error: unknown): string {
  const requestId = currentRequestId() ?? randomUUID().slice(0, 8);
  log.error({ err: error, where, reference: requestId }, `${where} failed`);
  return requestId;
}

/** The message an unexpected error is answered with. */
export function unexpectedMessage(requestId: string): string {
  return `Something went wrong (reference ${requestId}).`;
}

/**
 * What an action or route answers a thrown error with: an AppError as it is; the database lost or
 * read-only mid-request (a failover, lib/db/unavailable.ts) as 503 `unavailable` with Retry-After,
 * logged as a warning: nothing was committed and a repeat is safe; anything else logged and
 * `internal`.
 */
export function refusalOf(where: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (databaseUnavailable(error)) {
    const requestId = currentRequestId() ?? randomUUID().slice(0, 8);
    log.warn({ err: error, where, reference: requestId }, `${where}: the database is unavailable`);
    return new AppError("unavailable", undefined, {
      retryAfter: UNAVAILABLE_RETRY_AFTER_SECONDS,
      cause: error,
    });
  }
  return new AppError("internal", unexpectedMessage(logUnexpected(where, error)));
}
