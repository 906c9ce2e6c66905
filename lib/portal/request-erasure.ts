import type { Db } from "@/lib/db/doors";
import { recordPortalAudit } from "./portal-audit";
import type { PortalSession } from "./portal-session";

export const ERASURE_TASK_TITLE = "Erasure requested by the contact";

/**
 * GDPR article 17 asked for in the portal: erasure stays a member's act (lib/privacy/erase-contact),
 * so the request is an open task on the contact for the workspace (one while it is open), audited.
 * The contact's portal token rotates, so no link sent before the request opens the portal.
 */
export async function requestErasure(
  db: Db,
  session: PortalSession,
  ip: string | null,
): Promise<{ created: boolean }> {
  const [open] = await db`
    select 1 from public.tasks
    where workspace_id = ${session.workspaceId} and contact_id = ${session.contactId}
      and title = ${ERASURE_TASK_TITLE} and status in ('open', 'in_progress')`;
  await db`update public.contacts set portal_token = gen_random_uuid()
           where id = ${session.contactId} and workspace_id = ${session.workspaceId}`;
  if (open) return { created: false };
  await db`
    insert into public.tasks (workspace_id, contact_id, title, description, kind, due_date)
    values (${session.workspaceId}, ${session.contactId}, ${ERASURE_TASK_TITLE},
      ${
        "The contact asked in the portal for everything stored about them to be erased (GDPR article 17). " +
        "Check the request, then erase the contact from its page (Privacy, Erase)."
      },
      'general', (now() + interval '30 days')::date)`;
  await recordPortalAudit(db, {
    workspaceId: session.workspaceId,
    contactId: session.contactId,
    action: "contact.portal_erasure_requested",
    ip,
  });
  return { created: true };
}
