import { z } from "zod";
import type { ApiScope } from "./scopes";

/** The v1 error body (docs/api.md): `fields` only on a 400. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

/**
 * One v1 operation as the OpenAPI document describes it: the same zod schemas the route's
 * apiRoute parses with. `errors` lists the statuses besides 401, 429 and 500, which every
 * operation can answer.
 */
export interface ApiOperation {
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI path, `{id}` style */
  path: string;
  operationId: string;
  scope: ApiScope;
  summary: string;
  description?: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  /** the success status and its body (none for 204) */
  success: { status: 200 | 201 | 204; schema?: z.ZodType; description: string };
  /** further success answers (upsert: 200 merged and 201 created) */
  alsoSuccess?: { status: 200 | 201; schema?: z.ZodType; description: string }[];
  /** error statuses with the codes they carry */
  errors: { status: 400 | 403 | 404 | 409 | 413 | 415; codes: string[] }[];
  idempotent?: boolean;
}

/** The error entries most operations list: invalid input, an unknown id, and a body's refusals. */
export const invalid = { status: 400 as const, codes: ["invalid_request"] };
export const notFound = { status: 404 as const, codes: ["not_found"] };
export const bodyErrors = [
  invalid,
  { status: 413 as const, codes: ["too_large"] },
  { status: 415 as const, codes: ["unsupported"] },
];
