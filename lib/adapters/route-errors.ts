import { databaseUnavailable } from "@/lib/db/unavailable";
import { AppError } from "@/lib/errors/app-error";
import { jsonError } from "@/lib/http/error-envelope";
import { refusalOf } from "./log-unexpected";

/**
 * An error thrown by a route handler's function as an AppError: itself when it is one, a
 * client that hung up as `invalid` ("The request was aborted."), anything else logged once
 * with a request id and `internal` with that reference.
 */
export function routeAppError(where: string, request: Request, error: unknown): AppError {
  if (error instanceof AppError) return error;
  // a database connection reset is the database lost (503), not the client gone
  if (databaseUnavailable(error)) return refusalOf(where, error);
  if (request.signal.aborted || (error as { code?: string } | null)?.code === "ECONNRESET")
    return new AppError("invalid", "The request was aborted.");
  return refusalOf(where, error);
}

/** An AppError as the JSON error envelope: its status, message and code (429 and 503 with Retry-After). */
export function appErrorResponse(error: AppError, headers?: HeadersInit): Response {
  return jsonError(error, headers);
}

/** An error thrown by a route handler's function as the JSON error envelope. */
export function routeErrorResponse(where: string, request: Request, error: unknown): Response {
  return appErrorResponse(routeAppError(where, request, error));
}
