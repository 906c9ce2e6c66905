import type { z } from "zod";
import { APP_ERROR_CODES, AppError, type AppErrorCode } from "@/lib/errors/app-error";
import { CONTACT_NOT_FOUND, DUPLICATE_EMAIL_ERROR } from "@/lib/contacts/types";

/**
 * The error codes of the v1 API (docs/api.md): the AppError codes, renamed where the
 * contract names them differently. This table is the one place an AppError becomes an API code.
 */
const API_CODE: Partial<Record<AppErrorCode, string>> = {
  invalid: "invalid_request",
  unauthenticated: "unauthorized",
};

export function apiErrorCode(code: AppErrorCode): string {
  return API_CODE[code] ?? code;
}

/** Every code a v1 answer can carry, for the OpenAPI document. */
export const API_ERROR_CODES = (Object.keys(APP_ERROR_CODES) as AppErrorCode[]).map(apiErrorCode);

/** A 400 with more than one field's message (a zod parse): AppError carries one `field`. */
export class ApiInvalidRequest extends AppError {
  readonly fields: Record<string, string>;
  constructor(message: string, fields: Record<string, string>) {
    super("invalid", message);
    this.fields = fields;
  }
}

/** A failed zod parse as a 400: each issue's path (dotted) and its first message. */
export function invalidFromZod(error: z.ZodError, prefix?: string): ApiInvalidRequest {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const path = [prefix, ...issue.path.map(String)].filter(Boolean).join(".") || "body";
    fields[path] ??= issue.message;
  }
  const [first] = Object.entries(fields);
  return new ApiInvalidRequest(first ? `${first[0]}: ${first[1]}` : "The request is not valid.", fields);
}

/** The v1 error body: `{"error": {"code", "message"}}`, plus `fields` for a 400. */
export function apiErrorBody(error: AppError): {
  error: { code: string; message: string; fields?: Record<string, string> };
} {
  const body: { code: string; message: string; fields?: Record<string, string> } = {
    code: apiErrorCode(error.code),
    message: error.message,
  };
  if (error.status === 400)
    body.fields =
      error instanceof ApiInvalidRequest ? error.fields : error.field ? { [error.field]: error.message } : {};
  return { error: body };
}

/**
 * A domain function's refusal as the AppError the API answers with: lib functions refuse with an
 * AppError of the one list (lib/errors/app-error.ts), kept as it is; a bare message left in an
 * older result shape is a 400 `invalid_request` beside `field`.
 */
export function domainError(result: { error: string | AppError; field?: string }, field?: string): AppError {
  if (result.error instanceof AppError) return result.error;
  if (result.error === DUPLICATE_EMAIL_ERROR)
    return new AppError("contact_exists", DUPLICATE_EMAIL_ERROR, { field: "email" });
  if (result.error === CONTACT_NOT_FOUND) return new AppError("not_found");
  return new AppError("invalid", result.error, { field: result.field ?? field });
}

/** A domain result's data, or its refusal thrown through domainError. */
export function domainData<T>(
  result: { data: T } | { error: string | AppError; field?: string },
  field?: string,
): T {
  if ("error" in result) throw domainError(result, field);
  return result.data;
}

/** For results without `data` (`{ success: true }`): throws the refusal, narrows the rest. */
export function domainCheck<T extends object>(
  result: T,
  field?: string,
): asserts result is Exclude<T, { error: string | AppError }> {
  if ("error" in result && (typeof result.error === "string" || result.error instanceof AppError))
    throw domainError(result as { error: string | AppError; field?: string }, field);
}
