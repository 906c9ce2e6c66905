import { randomInt } from "node:crypto";
import type { Sql } from "@/lib/db/client";
import { generateFormKey, hashFormKey } from "@/lib/forms/api-key";
import { POST, OPTIONS } from "@/app/api/forms/[formId]/route";
import { GET as VERIFY } from "@/app/api/forms/verify/route";

export interface TestForm {
  id: string;
  workspaceId: string;
  key: string;
}

/** A form (open mode, verification required, with a key) unless told otherwise. */
export async function createForm(
  sql: Sql,
  workspaceId: string,
  fields: Record<string, unknown> = {},
): Promise<TestForm> {
  const key = generateFormKey();
  const row = { workspace_id: workspaceId, name: "Newsletter", api_key: hashFormKey(key), ...fields };
  const [form] = await sql`insert into public.forms ${sql(row)} returning id`;
  return { id: form.id, workspaceId, key };
}

/** A fresh public IPv4 address, so the limiter of one test never meets another's. */
export function randomIp(): string {
  return `203.${randomInt(0, 256)}.${randomInt(0, 256)}.${randomInt(1, 255)}`;
}

export interface SubmitOptions {
  json?: unknown;
  form?: Record<string, string>;
  raw?: BodyInit;
  contentType?: string;
  headers?: Record<string, string>;
  ip?: string;
  query?: string;
}

/** Calls the route handler exactly as Next.js would. */
export function submit(formId: string, options: SubmitOptions = {}): Promise<Response> {
  let body: BodyInit | undefined = options.raw;
  let contentType = options.contentType;
  if (options.json !== undefined) {
    body = JSON.stringify(options.json);
    contentType ??= "application/json";
  } else if (options.form) {
    body = new URLSearchParams(options.form).toString();
    contentType ??= "application/x-www-form-urlencoded";
  }
  const headers: Record<string, string> = { "x-forwarded-for": options.ip ?? randomIp(), ...options.headers };
  if (contentType) headers["content-type"] = contentType;
  const request = new Request(`http://localhost:3000/api/forms/${formId}${options.query ?? ""}`, {
    method: "POST",
    headers,
    body,
  });
  return POST(request, { params: Promise.resolve({ formId }) });
}

export function preflight(formId: string, origin: string): Promise<Response> {
  const request = new Request(`http://localhost:3000/api/forms/${formId}`, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "content-type",
    },
  });
  return OPTIONS(request, { params: Promise.resolve({ formId }) });
}

export function openVerifyLink(url: string): Promise<Response> {
  return VERIFY(new Request(url));
}

/** The verification link of the newest email to `to` in the dev outbox (its whole copy). */
export async function verificationLink(sql: Sql, to: string): Promise<string> {
  const [mail] = await sql`
    select coalesce(s.text_body, e.text_body) as text_body
    from public.email_sends e left join public.email_send_secrets s on s.email_send_id = e.id
    where e.to_email = ${to} order by e.created_at desc limit 1`;
  const match = /https?:\/\/\S+\/api\/forms\/verify\?token=[A-Za-z0-9_%-]+/.exec(mail?.text_body ?? "");
  if (!match) throw new Error(`no verification link in the outbox for ${to}`);
  return match[0];
}

/** Counts of everything a submission could write in a workspace. */
export async function storedCounts(sql: Sql, workspaceId: string) {
  const [row] = await sql`
    select (select count(*)::int from public.contacts where workspace_id = ${workspaceId}) as contacts,
           (select count(*)::int from public.form_submissions where workspace_id = ${workspaceId}) as submissions,
           (select count(*)::int from public.pending_form_submissions where workspace_id = ${workspaceId}) as pending,
           (select count(*)::int from public.notes where workspace_id = ${workspaceId}) as notes,
           (select count(*)::int from public.email_sends where workspace_id = ${workspaceId}) as emails`;
  return row as { contacts: number; submissions: number; pending: number; notes: number; emails: number };
}
