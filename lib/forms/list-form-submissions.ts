import type { Db } from "@/lib/db/doors";

export interface SubmissionListItem {
  id: string;
  contact_id: string | null;
  contact_email: string | null;
  contact_name: string | null;
  payload: unknown;
  ip_address: string | null;
  submission_type: "direct" | "verified_email" | "api_key";
  created_at: Date;
}

export interface PendingListItem {
  id: string;
  email: string;
  ip_address: string | null;
  created_at: Date;
  expires_at: Date;
}

export const SUBMISSIONS_PAGE_SIZE = 25;

/** 25 submissions a page, newest first, and the total (docs/decisions.md, "What the spec leaves open"). */
export async function listFormSubmissions(
  db: Db,
  input: { workspaceId: string; formId: string; page: number },
): Promise<{ items: SubmissionListItem[]; total: number; pending: PendingListItem[] }> {
  const page = Math.max(1, Math.floor(input.page) || 1);
  const items = await db<SubmissionListItem[]>`
    select s.id, s.contact_id, c.email as contact_email,
           nullif(concat_ws(' ', c.first_name, c.last_name), '') as contact_name, s.payload, host(s.ip_address) as ip_address,
           s.submission_type, s.created_at
    from public.form_submissions s
    left join public.contacts c on c.id = s.contact_id
    where s.form_id = ${input.formId} and s.workspace_id = ${input.workspaceId}
    order by s.created_at desc, s.id desc
    limit ${SUBMISSIONS_PAGE_SIZE} offset ${(page - 1) * SUBMISSIONS_PAGE_SIZE}`;
  const [{ total }] = await db`
    select count(*)::int as total from public.form_submissions
    where form_id = ${input.formId} and workspace_id = ${input.workspaceId}`;
  const pending = await db<PendingListItem[]>`
    select id, email, host(ip_address) as ip_address, created_at, expires_at
    from public.pending_form_submissions
    where form_id = ${input.formId} and workspace_id = ${input.workspaceId} and expires_at > now()
    order by created_at desc limit 50`;
  return { items, total, pending };
}

/**
 * The REST API's cursor list of a form's submissions (docs/api.md): the dashboard's columns
 * and order (newest first), `limit + 1` after the last one seen, so a walk neither repeats nor
 * skips while submissions arrive.
 */
export async function listFormSubmissionsAfter(
  db: Db,
  input: { workspaceId: string; formId: string; limit: number; after: { key: string; id: string } | null },
): Promise<(SubmissionListItem & { sort_key: string })[]> {
  const after = input.after;
  return db<(SubmissionListItem & { sort_key: string })[]>`
    select s.id, s.contact_id, c.email as contact_email,
           nullif(concat_ws(' ', c.first_name, c.last_name), '') as contact_name, s.payload, host(s.ip_address) as ip_address,
           s.submission_type, s.created_at, s.created_at::text as sort_key
    from public.form_submissions s
    left join public.contacts c on c.id = s.contact_id
    where s.form_id = ${input.formId} and s.workspace_id = ${input.workspaceId}
      ${after ? db`and (s.created_at, s.id) < (${after.key}::timestamptz, ${after.id}::uuid)` : db``}
    order by s.created_at desc, s.id desc
    limit ${input.limit + 1}`;
}
