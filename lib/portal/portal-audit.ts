import { recordAudit } from "@/lib/audit/record-audit";
import type { AuditAction } from "@/lib/audit/audit-actions";
import type { Db } from "@/lib/db/doors";

/** What the portal does, each an audit action whose target is the contact (docs/decisions.md, "Portal sessions"). */
export type PortalAction = Extract<AuditAction, `contact.portal_${string}`>;

/**
 * One act of a contact in the portal, in the audit log with the contact as the actor: no member and
 * no key (actor_id null), the contact as the target, `via: portal` in the summary. The contact's
 * timeline shows these entries (lib/contacts/timeline/change-entries.ts).
 */
export function recordPortalAudit(
  db: Db,
  entry: {
    workspaceId: string;
    contactId: string;
    action: PortalAction;
    after?: Record<string, unknown>;
    before?: Record<string, unknown>;
    ip?: string | null;
  },
): Promise<void> {
  return recordAudit(db, {
    workspaceId: entry.workspaceId,
    actorId: null,
    action: entry.action,
    targetType: "contact",
    targetId: entry.contactId,
    before: entry.before ?? null,
    after: { via: "portal", ...entry.after },
    ip: entry.ip ?? null,
  });
}
