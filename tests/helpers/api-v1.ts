import type { Sql } from "@/lib/db/client";
import { hashApiKey, newApiKey } from "@/lib/api-keys/hash-api-key";
import type { ApiScope } from "@/lib/api/v1/scopes";

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

type Handler = (request: Request, context?: { params: Promise<Record<string, string>> }) => Promise<Response>;

/** Calls a v1 route handler as Next would: the request, and the path parameters. */
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
  if (init.body !== undefined) headers["content-type"] = "application/json";
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
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
}
