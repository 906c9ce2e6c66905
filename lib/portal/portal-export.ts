import type { Db } from "@/lib/db/doors";
import { exportArchive } from "@/lib/privacy/export-archive";
import { exportContactData } from "@/lib/privacy/export-contact-data";
import { recordPortalAudit } from "./portal-audit";
import type { PortalSession } from "./portal-session";

/**
 * GDPR article 15 for the person themselves: the privacy export members answer with
 * (exportContactData, the ZIP of exportArchive), scoped to the session's contact and workspace,
 * recorded in the privacy log (no member acted) and audited.
 */
export async function portalExport(
  db: Db,
  session: PortalSession,
  ip: string | null,
): Promise<{ fileName: string; zip: Uint8Array }> {
  const result = await exportContactData(db, {
    workspaceId: session.workspaceId,
    contactId: session.contactId,
  });
  if ("error" in result) throw new Error("the session's contact is gone");
  await db`
    insert into public.privacy_requests (workspace_id, kind, contact_id, actor_user_id)
    values (${session.workspaceId}, 'export', ${session.contactId}, null)`;
  await recordPortalAudit(db, {
    workspaceId: session.workspaceId,
    contactId: session.contactId,
    action: "contact.portal_exported",
    ip,
  });
  const day = result.data.exported_at.slice(0, 10);
  return { fileName: `my-data-${day}.zip`, zip: exportArchive(result.data) };
}
