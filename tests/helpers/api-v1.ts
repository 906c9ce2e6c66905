import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { expect } from "vitest";
import type { Sql } from "@/lib/db/client";
import type { ApiScope } from "@/lib/api/v1/scopes";
import { hashApiKey, newApiKey } from "@/lib/api-keys/hash-api-key";
import { openApiDocument } from "@/lib/openapi/document";
import { apiRoute, type ApiRouteHandler } from "@/lib/api/v1/route";
import type { AnyApiOperation } from "@/lib/api/v1/define";

/**
 * Helpers for the REST API v1 tests (docs/api.md): keys of any scopes and state, requests
 * to a route handler, and the contract check that an answer is one the OpenAPI document
 * describes (its status is listed for the operation and its body validates, ajv, JSON Schema
 * 2020-12 as OpenAPI 3.1 uses it).
 */
export interface TestKey {
  id: string;
  key: string;
}

export async function apiKeyFor(
  sql: Sql,
  workspaceId: string,
  scopes: readonly ApiScope[],
  opts: { name?: string; expiresAt?: Date | null; revoked?: boolean } = {},
): Promise<TestKey> {
  const key = newApiKey();
  const [row] = await sql`
    insert into public.api_keys (workspace_id, name, key_hash, scopes, expires_at, revoked_at)
    values (${workspaceId}, ${opts.name ?? "Test key"}, ${hashApiKey(key)}, ${sql.array([...scopes])},
            ${opts.expiresAt ?? null}, ${opts.revoked ? new Date() : null})
    returning id`;
  return { id: row.id, key };
}

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

export interface V1Request {
  key?: string;
  params?: Record<string, string>;
  query?: Record<string, string> | string;
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * Calls a v1 operation (lib/api/v1, V1_OPERATIONS) as Next would call its route file's handler
 * (tests/unit/api-v1-operations.test.ts: the route file mounts exactly this operation): its method
 * and path with the parameters filled in.
 */
export function callOp(operation: AnyApiOperation, req: V1Request = {}): Promise<Response> {
  return callV1(handlerOf(operation), operation.method.toUpperCase(), operation.path, req);
}

const handlers = new Map<AnyApiOperation, Handler>();
/** The operation's route handler, built once as its route file builds it. */
export function handlerOf(operation: AnyApiOperation): Handler {
  let handler = handlers.get(operation);
  if (!handler) handlers.set(operation, (handler = apiRoute(operation)));
  return handler;
}

/** Calls a v1 route handler as Next would: `path` with its parameters filled in. */
export function callV1(
  handler: Handler,
  method: string,
  path: string,
  req: V1Request = {},
): Promise<Response> {
  const filled = path.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent((req.params?.[name] ?? "").replace(/\p{Cs}/gu, "\ufffd")),
  );
  const query =
    typeof req.query === "string" ? req.query : req.query ? `?${new URLSearchParams(req.query)}` : "";
  const headers: Record<string, string> = { ...req.headers };
  if (req.key) headers.authorization = `Bearer ${req.key}`;
  let body: string | undefined;
  if (req.body !== undefined) {
    body = typeof req.body === "string" ? req.body : JSON.stringify(req.body);
    headers["content-type"] ??= "application/json";
  }
  return handler(new Request(`http://crm.test${filled}${query}`, { method, headers, body }), {
    params: Promise.resolve(req.params ?? {}),
  });
}

/** An operation as the attack tests drive it: its method, path and scope, and its fixtures. */
export type AttackTarget<F> = {
  op: AnyApiOperation;
  method: string;
  path: string;
  scope: ApiScope;
} & Partial<F>;

/** The attack targets of these operations of V1_OPERATIONS, with their fixtures by operationId. */
export function attackTargets<F extends object>(
  operations: readonly AnyApiOperation[],
  fixtures: Record<string, F>,
): AttackTarget<F>[] {
  return operations.map((op) => ({
    op,
    method: op.method.toUpperCase(),
    path: op.path,
    scope: op.scope,
    ...fixtures[op.operationId],
  }));
}

let ajv: Ajv2020 | undefined;
const DOC_ID = "https://crm.test/openapi.json";

function validator() {
  if (!ajv) {
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema(JSON.parse(JSON.stringify(openApiDocument())) as object, DOC_ID);
  }
  return ajv;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/**
 * The answer is one the document describes for `method path`: its status is listed and its JSON
 * body (if any) validates against that response's schema. Returns the parsed body.
 */
export async function expectDocumented(res: Response, method: string, path: string): Promise<unknown> {
  const doc = openApiDocument();
  const operation = (
    doc.paths?.[path] as Record<string, { responses?: Record<string, unknown> }> | undefined
  )?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is in the document`).toBeDefined();
  const status = String(res.status);
  let response = operation?.responses?.[status] as
    { content?: Record<string, unknown>; $ref?: string } | undefined;
  // a shared response (the v1 errors) is a $ref to components/responses
  let base = pointer("paths", path, method.toLowerCase(), "responses", status);
  if (response?.$ref) {
    base = response.$ref.slice(2);
    response = doc.components?.responses?.[response.$ref.split("/").pop()!] as typeof response;
  }
  const text = await res.clone().text();
  expect(
    response,
    `${method} ${path}: status ${status} is documented (body ${text.slice(0, 300)})`,
  ).toBeDefined();
  if (!response?.content) {
    expect(text, `${method} ${path} ${status} has no body`).toBe("");
    return undefined;
  }
  const body: unknown = JSON.parse(text);
  const ref = `${DOC_ID}#/${base}/${pointer("content", "application/json", "schema")}`;
  const validate = validator().getSchema(ref) ?? validator().compile({ $ref: ref });
  const valid = validate(body);
  expect(validate.errors ?? [], `${method} ${path} ${status}: ${text.slice(0, 300)}`).toEqual([]);
  expect(valid).toBe(true);
  return body;
}

/* The contacts tests' shapes (api-core): a key as { id, name, raw }, and an answer read as JSON. */

/** A v1 key of the workspace with these scopes (written as the database owner). */
export async function apiKey(
  sql: Sql,
  workspaceId: string,
  scopes: ApiScope[],
  fields: Record<string, unknown> = {},
): Promise<{ id: string; name: string; raw: string }> {
  const raw = newApiKey();
  const row = {
    workspace_id: workspaceId,
    name: `Sync ${raw.slice(4, 10)}`,
    key_hash: hashApiKey(raw),
    scopes,
    ...fields,
  };
  const [k] = await sql`insert into public.api_keys ${sql(row)} returning id, name`;
  return { id: k.id, name: k.name, raw };
}

/**
 * Calls a v1 route handler as Next would: the request, and the path parameters. Every answer of
 * a v1 operation's route is checked against the OpenAPI document (`expectDocumented`), errors too.
 */
export async function call(
  handler: Handler,
  init: {
    method?: string;
    path?: string;
    key?: string | null;
    body?: unknown;
    params?: Record<string, string>;
    headers?: Record<string, string>;
  },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a test reads the JSON answer field by field
): Promise<{ status: number; body: any; headers: Headers }> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key) headers.authorization = `Bearer ${init.key}`;
  if (init.body !== undefined) headers["content-type"] ??= "application/json";
  const request = new Request(`http://crm.test${init.path ?? "/api/v1/contacts"}`, {
    method: init.method ?? "GET",
    headers,
    body:
      init.body === undefined
        ? undefined
        : typeof init.body === "string"
          ? init.body
          : JSON.stringify(init.body),
  });
  const response = await handler(request, { params: Promise.resolve(init.params ?? {}) });
  // a v1 route handler carries its operation: its document entry (apiRoute)
  const operation = (handler as Partial<ApiRouteHandler>).operation;
  if (operation) await expectDocumented(response, init.method ?? "GET", operation.path);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}
