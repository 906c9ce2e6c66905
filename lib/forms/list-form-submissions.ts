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
