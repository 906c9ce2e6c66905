import type { AppError } from "@/lib/errors/app-error";

/**
 * The one JSON error envelope of every public endpoint and webhook:
 * `{ success: false, error, code }`, with a readable message that names nothing the caller did
 * not send, the machine-readable code of lib/errors/app-error.ts, and the status that code maps
 * to (429 with Retry-After). `details` add fields (an RSVP's `eventbrite_url`).
 */
export function jsonError(error: AppError, headers?: HeadersInit): Response {
  const all = new Headers(headers);
  if (error.retryAfter) all.set("Retry-After", String(error.retryAfter));
  return Response.json(
    { success: false, error: error.message, code: error.code, ...error.details },
    { status: error.status, headers: all },
  );
}
