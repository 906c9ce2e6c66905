import type { Db } from "@/lib/db/doors";

export interface AuditLogRow {
  /** bigint, as text */
  id: string;
  created_at: Date;
  actor_id: string | null;
  actor_email: string | null;
  /** the API key a v1 write was made with (docs/api.md): its id and name then */
  actor_api_key_id?: string | null;
  actor_api_key_name?: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  ip: string | null;
}

export interface AuditLogFilter {
  workspaceId: string;
  /** one audited action ('tag.created'), or every action of a target ('contact.') */
  action?: string;
  actorId?: string;
  targetId?: string;
  /** rows at or after this instant */
  since?: Date | null;
  /** rows before this instant */
  until?: Date | null;
  /** keyset cursor: rows older than the row with this id */
  before?: string;
  /** rows per page: 50 unless given, at most 1,000 */
  limit?: number;
}

export const AUDIT_LOG_PAGE_SIZE = 50;

/**
 * A page of the workspace's audit log, newest first (docs/decisions.md, "Audit log"), and the cursor of the
 * next, older page (null on the last). Owners only: RLS (audit_log_select_owners) gives anyone else
 * no rows. Keyset, not offset: the next page starts after the last row shown, on the index
 * (workspace_id, created_at desc, id desc), so a page deep in a long log costs what the first
 * does, and rows written meanwhile do not shift it.
 */
export async function listAuditLog(
  db: Db,
  filter: AuditLogFilter,
): Promise<{ rows: AuditLogRow[]; older: string | null }> {
  const limit = Math.min(Math.max(1, filter.limit ?? AUDIT_LOG_PAGE_SIZE), 1_000);
  const ws = filter.workspaceId;
  const action = filter.action
    ? filter.action.endsWith(".")
      ? db`and starts_with(a.action, ${filter.action})`
      : db`and a.action = ${filter.action}`
    : db``;
  const rows = await db<AuditLogRow[]>`
    select a.id::text as id, a.created_at, a.actor_id, a.actor_email, a.actor_api_key_id, a.actor_api_key_name, a.action, a.target_type, a.target_id,
           a.before, a.after, host(a.ip) as ip
    from public.audit_log a
    where a.workspace_id = ${ws}
      ${action}
      ${filter.actorId ? db`and a.actor_id = ${filter.actorId}` : db``}
      ${filter.targetId ? db`and a.target_id = ${filter.targetId}` : db``}
      ${filter.since ? db`and a.created_at >= ${filter.since}` : db``}
      ${filter.until ? db`and a.created_at < ${filter.until}` : db``}
      ${
        filter.before
          ? db`and (a.created_at, a.id) < (select c.created_at, c.id from public.audit_log c
                                            where c.id = ${filter.before} and c.workspace_id = ${ws})`
          : db``
      }
    order by a.created_at desc, a.id desc
    limit ${limit + 1}`;
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : [...rows];
  return { rows: page, older: more ? page[page.length - 1].id : null };
}
