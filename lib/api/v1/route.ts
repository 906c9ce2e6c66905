import { unstable_rethrow } from "next/navigation";
import type { z } from "zod";
import type { AuditAction } from "@/lib/audit/audit-actions";
import { recordAudit, recordAudits, type AuditEntry } from "@/lib/audit/record-audit";
import { routeAppError } from "@/lib/adapters/route-errors";
import type { RouteContext } from "@/lib/adapters/public-route";
import { withReadService, withService, type Db } from "@/lib/db/doors";
import { apiKeyCaller } from "@/lib/db/replica";
import { AppError } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import { readLimitedBody } from "@/lib/http/read-limited-body";
import { observeRequest } from "@/lib/observability/observe-request";
import { apiErrorBody, invalidFromZod } from "./errors";
import {
  claimIdempotencyKey,
  idempotencyKey,
  requestFingerprint,
  storeIdempotentAnswer,
} from "./idempotency";
import { publicApiRoute } from "./public-route";
import { authenticateKey, chargeKey, type ApiKeyActor, type RateLimitState } from "./key-auth";
import type { AnyApiOperation, ApiOperation } from "./define";

/** The largest v1 request body: a batch of 1,000 contacts fits (docs/api.md). */
export const API_BODY_LIMIT = 2 * 1024 * 1024;

/** What a v1 handler receives: its transaction (as the service, scoped by the code to the key's workspace). */
export interface ApiContext<B, Q, P> {
  db: Db;
  key: ApiKeyActor;
  /** the key's workspace: every id from the request is looked up inside it */
  workspaceId: string;
  body: B;
  query: Q;
  params: P;
  request: Request;
  ip: string | null;
  /**
   * Appends an audit row naming the key (id and name) as the actor, in this transaction; with
   * `later`, the row waits for the end of the handler and is written with the others in one
   * statement (a batch), still in this transaction.
   */
  audit: (
    action: AuditAction,
    target: [type: string, id: string | null],
    change?: { before?: Record<string, unknown> | null; after?: Record<string, unknown> | null },
    options?: { later?: boolean },
  ) => Promise<void>;
}

/** A handler's answer: a status and a JSON body (undefined for 204). */
export interface ApiReply {
  status: number;
  body?: unknown;
}

export const ok = (body: unknown): ApiReply => ({ status: 200, body });
export const created = (body: unknown): ApiReply => ({ status: 201, body });
export const noContent = (): ApiReply => ({ status: 204 });

type Handler = (request: Request, context?: RouteContext) => Promise<Response>;

/** A route handler built by apiRoute, carrying the operation it runs (tests/unit/api-v1-operations.test.ts). */
export type ApiRouteHandler = Handler & { readonly operation: AnyApiOperation };

/**
 * The one way a v1 operation runs (docs/api.md), mounted in its route file as
 * `export const POST = apiRoute(contacts.create)`: the Bearer key (401
 * `unauthorized`), the key's rate limit (429 `rate_limited` with Retry-After), its scope (403
 * `forbidden`), the path parameters (404 `not_found`), query and body (400 `invalid_request`
 * with `fields`), then the handler in ONE service transaction with the Idempotency-Key claim and every
 * audit row it writes, the key as the actor. Every answer carries RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset once the key is known; every error body is
 * `{"error": {"code", "message"}}`.
 */
export function apiRoute<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
  operation: ApiOperation<B, Q, P>,
): ApiRouteHandler {
  const handler: Handler = operation.access === "public" ? publicApiRoute(operation) : keyRoute(operation);
  return Object.assign(handler, { operation: operation as AnyApiOperation });
}

function keyRoute<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
  operation: ApiOperation<B, Q, P>,
): Handler {
  return async (request, context) =>
    observeRequest(`api v1 ${operation.operationId}`, request, async () => {
      let rate: RateLimitState | null = null;
      try {
        const ip = clientIp(request.headers);
        const auth = await authenticateKey(request, ip);
        rate = auth.rate;
        if (!auth.allowed)
          throw new AppError("rate_limited", "Too many requests for this API key; try again later.", {
            retryAfter: auth.rate.reset,
          });
        if (!auth.key.scopes.includes(operation.scope))
          throw new AppError("forbidden", `This API key lacks the scope ${operation.scope}.`);
        const params = await parseParams(operation.params, context);
        const query = parseQuery(operation.query, request);
        const { body, raw } = await parseBody(operation.body, request);
        const extra = operation.units ? Math.ceil(operation.units(body as z.output<B>)) - 1 : 0;
        if (extra > 0) {
          const charged = await chargeKey(auth.key.id, extra);
          rate = charged.rate;
          if (!charged.allowed)
            throw new AppError("rate_limited", "Too many requests for this API key; try again later.", {
              retryAfter: charged.rate.reset,
            });
        }
        const idemKey = operation.idempotent && request.method !== "GET" ? idempotencyKey(request) : null;
        const key = auth.key;

        // GETs read on the replica when it may serve them, writes mark the key's position so its
        // next read sees them (docs/decisions.md, "Read replica: a caller reads its own writes")
        const caller = apiKeyCaller(key.id);
        const door = <T>(run: (db: Db) => Promise<T>) =>
          request.method === "GET" ? withReadService(run, { caller }) : withService(run, { writer: caller });
        const reply = await door(async (db): Promise<ApiReply & { replayed?: boolean }> => {
          if (idemKey) {
            const claim = await claimIdempotencyKey(db, {
              apiKeyId: key.id,
              workspaceId: key.workspaceId,
              key: idemKey,
              fingerprint: requestFingerprint(request.method, request.url, raw),
            });
            if (!claim.claimed)
              return { status: claim.status, body: claim.body ?? undefined, replayed: true };
          }
          const later: AuditEntry[] = [];
          const reply = await operation.handler({
            db,
            key,
            workspaceId: key.workspaceId,
            body: body as z.output<B>,
            query: query as z.output<Q>,
            params: params as z.output<P>,
            request,
            ip,
            audit: async (action, [targetType, targetId], change = {}, { later: defer = false } = {}) => {
              const entry: AuditEntry = {
                workspaceId: key.workspaceId,
                actorId: null,
                actorApiKey: { id: key.id, name: key.name },
                action,
                targetType,
                targetId,
                before: change.before ?? null,
                after: change.after ?? null,
                ip,
              };
              if (defer) later.push(entry);
              else await recordAudit(db, entry);
            },
          });
          await recordAudits(db, later);
          if (idemKey)
            await storeIdempotentAnswer(db, {
              apiKeyId: key.id,
              key: idemKey,
              status: reply.status,
              body: reply.body,
            });
          return reply;
        });
        const headers = rateHeaders(rate);
        if (reply.replayed) headers["Idempotent-Replayed"] = "true";
        if (reply.status === 204 || reply.body === undefined)
          return new Response(null, { status: reply.status, headers });
        return Response.json(reply.body, { status: reply.status, headers });
      } catch (error) {
        unstable_rethrow(error);
        return apiErrorResponse(routeAppError(`api v1 ${operation.operationId}`, request, error), rate);
      }
    });
}

function rateHeaders(rate: RateLimitState | null): Record<string, string> {
  const headers: Record<string, string> = { "Cache-Control": "no-store" };
  if (rate) {
    headers["RateLimit-Limit"] = String(rate.limit);
    headers["RateLimit-Remaining"] = String(rate.remaining);
    headers["RateLimit-Reset"] = String(rate.reset);
  }
  return headers;
}

/** An AppError as the v1 error answer, with the rate-limit headers once the key is known. */
export function apiErrorResponse(error: AppError, rate: RateLimitState | null = null): Response {
  const headers = rateHeaders(rate);
  if (error.code === "rate_limited") headers["Retry-After"] = String(error.retryAfter ?? rate?.reset ?? 60);
  if (error.code === "unavailable" && error.retryAfter) headers["Retry-After"] = String(error.retryAfter);
  if (error.code === "unauthenticated") headers["WWW-Authenticate"] = 'Bearer realm="api"';
  return Response.json(apiErrorBody(error), { status: error.status, headers });
}

async function parseParams(schema: z.ZodType | undefined, context: RouteContext | undefined) {
  if (!schema) return {};
  const parsed = schema.safeParse((await context?.params) ?? {});
  if (!parsed.success) throw new AppError("not_found");
  return parsed.data;
}

/** The query string as an object: a parameter given once is a string, repeated an array. */
export function queryObject(url: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const params = new URL(url).searchParams;
  for (const key of new Set(params.keys())) {
    const all = params.getAll(key);
    out[key] = all.length > 1 ? all : all[0];
  }
  return out;
}

/**
 * The path of the first string inside `value` with a NUL character, which no Postgres text value
 * can hold (it would fail the statement: a 500 where a 400 belongs), or null.
 */
export function nulPath(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = nulPath(item, [...path, String(i)]);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      const found = nulPath(key, [...path, key]) ?? nulPath(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

function refuseNul(value: unknown, where: string): void {
  const path = nulPath(value);
  if (path) {
    const field = path.join(".") || where;
    throw new AppError("invalid", `${field}: text cannot contain NUL characters.`, { field });
  }
}

function parseQuery(schema: z.ZodType | undefined, request: Request) {
  if (!schema) return {};
  const raw = queryObject(request.url);
  refuseNul(raw, "query");
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw invalidFromZod(parsed.error);
  return parsed.data;
}

async function parseBody(
  schema: z.ZodType | undefined,
  request: Request,
): Promise<{ body: unknown; raw: string }> {
  if (!schema || request.method === "GET" || request.method === "DELETE") {
    await request.body?.cancel().catch(() => {});
    return { body: undefined, raw: "" };
  }
  const read = await readLimitedBody(request, API_BODY_LIMIT);
  if ("tooLarge" in read) throw new AppError("too_large", "The request body is too large (at most 2 MB).");
  let raw: string;
  try {
    raw = new TextDecoder("utf-8", { fatal: true }).decode(read.bytes);
  } catch {
    throw new AppError("invalid", "The request body is not valid UTF-8.", { field: "body" });
  }
  const type = request.headers.get("content-type") ?? "";
  if (raw.trim() !== "" && !/^application\/(.+\+)?json\s*(;|$)/i.test(type))
    throw new AppError("unsupported", "Send the body as JSON (Content-Type: application/json).");
  let json: unknown;
  try {
    json = raw.trim() === "" ? {} : JSON.parse(raw);
  } catch {
    throw new AppError("invalid", "The request body is not valid JSON.", { field: "body" });
  }
  refuseNul(json, "body");
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw invalidFromZod(parsed.error);
  return { body: parsed.data, raw };
}
