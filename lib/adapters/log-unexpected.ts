import { randomUUID } from "node:crypto";

/**
 * Logs an unexpected error once, with a short request id the caller is shown ("reference …"),
 * so a support request can be matched with the log line. Expected errors (AppError) are not
 * logged: they are answers, not faults.
 */
export function logUnexpected(where: string, error: unknown): string {
  const requestId = randomUUID().slice(0, 8);
  console.error(`[${requestId}] ${where} failed:`, error);
  return requestId;
}

/** The message an unexpected error is answered with. */
export function unexpectedMessage(requestId: string): string {
  return `Something went wrong (reference ${requestId}).`;
}
