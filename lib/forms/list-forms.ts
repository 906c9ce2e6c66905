import type { Db } from "@/lib/db/doors";

export interface FormSummary {
  id: string;
  name: string;
  allowed_domains: string[];
  has_key: boolean;
  require_verification: boolean;
  captcha_required: boolean;
  success_redirect_url: string | null;
  /** the form's language (docs/decisions.md, "Recipient languages"); null: the visitor's */
  locale: string | null;
  submissions: number;
  pending: number;
  last_submission_at: Date | null;
  created_at: Date;
}

/**
 * The workspace's forms with their submission counts, newest first (one query). Each form's
 * count is an index-only scan of (workspace_id, form_id) and its latest submission one probe of
 * (form_id, created_at): at 100,000 submissions 9 ms, where grouping the workspace's
 * submissions read every row (21 ms; docs/performance.md).
 */
export async function listForms(
  db: Db,
  workspaceId: string,
  /** the REST API's cursor lists (docs/api.md): `limit` forms after this one's sort key */
  page?: { limit: number; after: { key: string; id: string } | null },
): Promise<(FormSummary & { sort_key: string })[]> {
  const after = page?.after;
  return db<(FormSummary & { sort_key: string })[]>`
    select f.created_at::text as sort_key, f.id, f.name, f.allowed_domains, f.api_key is not null as has_key, f.require_verification,
           f.captcha_required, f.success_redirect_url, f.locale, f.created_at,
           s.n as submissions, s.last_at as last_submission_at,
           coalesce(p.n, 0)::int as pending
    from public.forms f
    cross join lateral (
      select count(*)::int as n,
             (select max(l.created_at) from public.form_submissions l where l.form_id = f.id) as last_at
      from public.form_submissions s where s.workspace_id = f.workspace_id and s.form_id = f.id
    ) s
    left join (select form_id, count(*) as n from public.pending_form_submissions
               where workspace_id = ${workspaceId} and expires_at > now() group by form_id) p
      on p.form_id = f.id
    where f.workspace_id = ${workspaceId}
      ${after ? db`and (f.created_at < ${after.key}::timestamptz or (f.created_at = ${after.key}::timestamptz and f.id > ${after.id}))` : db``}
    order by f.created_at desc, f.id
    ${page ? db`limit ${page.limit + 1}` : db``}`;
}

/** One form of the workspace, or null. */
export async function getForm(
  db: Db,
  input: { workspaceId: string; formId: string },
): Promise<FormSummary | null> {
  const forms = await db<FormSummary[]>`
    select f.id, f.name, f.allowed_domains, f.api_key is not null as has_key, f.require_verification,
           f.captcha_required, f.success_redirect_url, f.locale, f.created_at,
           (select count(*)::int from public.form_submissions s where s.form_id = f.id) as submissions,
           (select max(created_at) from public.form_submissions s where s.form_id = f.id) as last_submission_at,
           (select count(*)::int from public.pending_form_submissions p
             where p.form_id = f.id and p.expires_at > now()) as pending
    from public.forms f
    where f.id = ${input.formId} and f.workspace_id = ${input.workspaceId}`;
  return forms[0] ?? null;
}
