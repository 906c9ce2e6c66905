import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject, ZodOpenApiResponseObject } from "zod-openapi";
import { V1_OPERATIONS, v1TagOf } from "@/lib/api/v1";
import type { AnyApiOperation } from "@/lib/api/v1/define";
import { json, plainError, security } from "../helpers";

/**
 * The REST API v1 (docs/api.md) from its operations (lib/api/v1, V1_OPERATIONS): the zod schemas
 * its routes parse and answer with, the scope as the security requirement, and one response per
 * error status listing the codes it carries (clients switch on `error.code`).
 */
const MESSAGES: Record<number, string> = {
  400: "Invalid input: `fields` names each field and what is wrong with it.",
  401: "No key, or an unknown, revoked or expired key.",
  403: "The key lacks the scope this operation needs.",
  404: "No such id in the key's workspace (another workspace's id reads the same).",
  409: "A conflict.",
  413: "The body is too large.",
  415: "The body is not JSON.",
  429: "Too many requests for this key: wait Retry-After seconds.",
  500: "An unexpected error (logged with a request id).",
  503: "The database was lost or is read-only (a failover): nothing was stored; send the same request again after Retry-After seconds.",
};

const rateLimitHeaders = {
  "RateLimit-Limit": z.string().meta({ description: "Requests allowed per window for this key." }),
  "RateLimit-Remaining": z.string().meta({ description: "Requests left in this window." }),
  "RateLimit-Reset": z.string().meta({ description: "Seconds until the window starts again." }),
};

const errorResponses = new Map<string, ZodOpenApiResponseObject>();

/**
 * The error answer of one status, its `code` one of `codes` (docs/api.md: `fields` on a
 * 400), as one shared component per status and codes: the document stays small enough for the
 * reference page to draw quickly.
 */
export function v1ErrorResponse(
  status: number,
  codes: string[],
  extra?: Record<string, z.ZodType>,
): ZodOpenApiResponseObject {
  const id = `V1Error${status}_${codes.map((c) => c.replace(/(^|_)([a-z])/g, (_, __, ch: string) => ch.toUpperCase())).join("")}`;
  // a body with fields beside `error` is its operation's own, not a shared component
  if (extra) return v1ErrorBody(status, codes, extra);
  const known = errorResponses.get(id);
  if (known) return known;
  const response = { id, ...v1ErrorBody(status, codes) };
  errorResponses.set(id, response);
  return response;
}

function v1ErrorBody(status: number, codes: string[], extra: Record<string, z.ZodType> = {}) {
  const detail = z.object({
    code: z.enum(codes as [string, ...string[]]),
    message: z.string(),
    ...(status === 400 ? { fields: z.record(z.string(), z.string()) } : {}),
  });
  return {
    description: `${MESSAGES[status] ?? "Refused."} Codes: ${codes.map((c) => `\`${c}\``).join(", ")}.`,
    headers: z.object(
      status === 429
        ? { ...rateLimitHeaders, "Retry-After": z.string().meta({ description: "Seconds to wait." }) }
        : status === 503
          ? { "Retry-After": z.string().meta({ description: "Seconds to wait." }) }
          : status === 401
            ? {}
            : rateLimitHeaders,
    ),
    ...json(z.object({ error: detail, ...extra })),
  };
}

export function v1Operation(op: AnyApiOperation): ZodOpenApiOperationObject {
  if (op.access === "public") return publicOperation(op);
  const errors = new Map<number, string[]>([
    [401, ["unauthorized"]],
    [403, ["forbidden"]],
    [429, ["rate_limited"]],
    [500, ["internal"]],
    [503, ["unavailable"]],
  ]);
  for (const e of op.errors)
    errors.set(e.status, [...new Set([...(errors.get(e.status) ?? []), ...e.codes])]);
  const successes = [op.success, ...(op.alsoSuccess ?? [])];
  const responses: Record<string, ZodOpenApiResponseObject> = {};
  for (const s of successes)
    responses[String(s.status)] = {
      description: s.description,
      headers: z.object(
        op.idempotent
          ? {
              ...rateLimitHeaders,
              "Idempotent-Replayed": z
                .string()
                .optional()
                .meta({ description: "`true` when this is the stored answer to an earlier request." }),
            }
          : rateLimitHeaders,
      ),
      ...(s.schema ? json(s.schema) : {}),
    };
  for (const [status, codes] of [...errors].sort(([a], [b]) => a - b)) {
    const extra = op.errors.find((e) => e.status === status && e.extra)?.extra;
    responses[String(status)] = v1ErrorResponse(status, codes, extra);
  }
  return {
    operationId: op.operationId,
    tags: [v1TagOf(op)],
    summary: op.summary,
    description: [op.description, `Scope: \`${op.scope}\`.`].filter(Boolean).join(" "),
    security: security.apiKey(op.scope),
    requestParams: {
      ...(op.params ? { path: op.params as z.ZodObject } : {}),
      ...(op.query ? { query: op.query as z.ZodObject } : {}),
      ...(op.idempotent
        ? {
            header: z.object({
              "Idempotency-Key": z
                .string()
                .max(255)
                .optional()
                .meta({
                  description:
                    "Repeated with the same body within 24 hours: the first answer again, nothing changed twice; " +
                    "with another body: 409 `idempotency_conflict`.",
                }),
            }),
          }
        : {}),
    },
    ...(op.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: op.body,
                ...(op.example === undefined ? {} : { example: op.example }),
              },
            },
          },
        }
      : {}),
    responses,
  };
}

/**
 * An operation of the public door (lib/api/v1/public-route.ts, spec 4.14): its key as a Bearer
 * token or `?key=`, an ETag and 304, and the public list's own error body.
 */
function publicOperation(op: AnyApiOperation): ZodOpenApiOperationObject {
  return {
    operationId: op.operationId,
    security: [{ apiKey: [op.scope] }, { apiKeyQuery: [] }],
    tags: [v1TagOf(op)],
    summary: op.summary,
    description: op.description,
    requestParams: { query: op.query as z.ZodObject },
    responses: {
      [String(op.success.status)]: {
        description: op.success.description,
        headers: z.object({ ETag: z.string() }),
        ...json(op.success.schema!),
      },
      "304": { description: "Not modified (If-None-Match)." },
      "401": plainError("No key, or an unknown key."),
      "403": plainError("A revoked key."),
    },
  };
}

export function v1PathsOf(operations: readonly AnyApiOperation[]): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const op of operations) paths[op.path] = { ...paths[op.path], [op.method]: v1Operation(op) };
  return paths;
}

export const v1Paths = v1PathsOf(V1_OPERATIONS);
