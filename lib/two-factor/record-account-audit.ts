import type { AuditAction } from "@/lib/audit/audit-actions";
import { redact } from "@/lib/audit/record-audit";
import type { Db } from "@/lib/db/doors";

/**
 * An account's own security event (second factor turned on or off, a recovery code used, a
 * failed code) belongs to no one workspace: it is written to the log of every workspace the
 * account is a member of, where the owners who may require two-factor read it. One statement.
 */
export async function recordAccountAudit(
  db: Db,
  entry: {
    userId: string;
    email?: string | null;
    action: AuditAction;
    after?: Record<string, unknown>;
    ip: string | null;
  },
): Promise<void> {
  const after = entry.after ? db.json(redact(entry.after) as never) : null;
  await db`
    insert into public.audit_log (workspace_id, actor_id, actor_email, action, target_type, target_id, after, ip)
    select m.workspace_id, ${entry.userId}, ${entry.email ?? null}, ${entry.action}, 'user', ${entry.userId},
      ${after}, ${entry.ip}
    from public.workspace_members m where m.user_id = ${entry.userId}`;
}
