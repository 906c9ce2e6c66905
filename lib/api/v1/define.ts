import { z } from "zod";
import type { ApiContext, ApiReply } from "./route";
import type { ApiScope } from "./scopes";

/** The v1 error body (docs/api.md): `fields` only on a 400. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string(),
    message: z.string(),
    fields: z.record(z.string(), z.string()).optional(),
  }),
});

/** A query or path schema's default: no parameters. */
export type NoParams = z.ZodType<Record<string, never>>;

/**
 * One v1 operation, declared once (docs/api.md): what apiRoute checks and runs (scope, path
 * parameters, query, body, Idempotency-Key, rate units, the handler) and what the OpenAPI document
 * and the typed client describe (path, operationId, summary, success and error answers), from the
 * same zod schemas. `errors` lists the statuses besides 401, 403, 429 and 500, which every
 * operation can answer. Its route file mounts it: `export const GET = apiRoute(area.operation)`.
 */
export interface ApiOperation<
  B extends z.ZodType = z.ZodType,
  Q extends z.ZodType = z.ZodType,
  P extends z.ZodType = z.ZodType,
> {
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI path, `{id}` style; its route file is app/<path with [id]>/route.ts */
  path: string;
  /** the operation's name: the OpenAPI operationId, log lines and metrics */
  operationId: string;
  /** the scope the key must hold (403 `forbidden` without it) */
  scope: ApiScope;
  summary: string;
  description?: string;
  /** the path parameters' schema; one that does not parse (a malformed id) is 404 `not_found` */
  params?: P;
  /** the query string's schema (a repeated parameter arrives as an array) */
  query?: Q;
  /** the JSON body's schema; a body that does not parse is 400 `invalid_request` with `fields` */
  body?: B;
  /** a request body the document shows, which works when sent as it is */
  example?: z.input<B>;
  /** the success status and its body (none for 204) */
  success: { status: 200 | 201 | 204; schema?: z.ZodType; description: string };
  /** further success answers (upsert: 200 merged and 201 created) */
  alsoSuccess?: { status: 200 | 201; schema?: z.ZodType; description: string }[];
  /**
   * error statuses with the codes they carry; `extra`: fields the error body carries beside
   * `error` (a second check-in's `check_in`), for the document
   */
  errors: { status: 400 | 403 | 404 | 409 | 413 | 415; codes: string[]; extra?: Record<string, z.ZodType> }[];
  /**
   * The door it is served through. Unset: the v1 kernel (apiRoute: Bearer key, rate limit, the v1
   * error body, one transaction per request). "public": spec 4.14's list (lib/api/v1/public-route.ts):
   * the key as a Bearer token or `?key=` (spec 5.2), answers any origin may read and caches may keep,
   * and its own error body `{ "error": "<text>" }` (401 without a known key, 403 with a revoked one or
   * one without the scope), which stays as the public list has always answered; `errors` is then empty.
   */
  access?: "public";
  /** honours Idempotency-Key (docs/api.md): for POSTs that create or change */
  idempotent?: boolean;
  /**
   * The units of the key's rate limit a request with this body uses, when more than one (a batch
   * counts its items: docs/decisions.md, "The rate limit counts items").
   */
  units?(body: z.output<B>): number;
  /** the parsed body, query and path parameters in, the answer out, in the request's transaction */
  handler(ctx: ApiContext<z.output<B>, z.output<Q>, z.output<P>>): Promise<ApiReply>;
}

/** Any operation of the registry, whatever its schemas. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the registry holds operations of every shape
export type AnyApiOperation = ApiOperation<any, any, any>;

/** One endpoint, one object (docs/api.md): its schemas type its handler. */
export function defineOperation<
  B extends z.ZodType = z.ZodUndefined,
  Q extends z.ZodType = NoParams,
  P extends z.ZodType = NoParams,
>(operation: ApiOperation<B, Q, P>): ApiOperation<B, Q, P> {
  return operation;
}

/** The error entries most operations list: invalid input, an unknown id, and a body's refusals. */
export const invalid = { status: 400 as const, codes: ["invalid_request"] };
export const notFound = { status: 404 as const, codes: ["not_found"] };
export const idempotencyConflict = { status: 409 as const, codes: ["idempotency_conflict"] };
export const bodyErrors = [
  invalid,
  { status: 413 as const, codes: ["too_large"] },
  { status: 415 as const, codes: ["unsupported"] },
];
