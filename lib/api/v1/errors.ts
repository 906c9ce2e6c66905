import type { z } from "zod";
import { APP_ERROR_CODES, AppError, type AppErrorCode } from "@/lib/errors/app-error";

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
