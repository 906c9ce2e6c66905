import type { Db } from "@/lib/db/doors";

/** The privacy log entry of an export (article 15): which contact, by whom, when. */
export async function recordPrivacyExport(
  db: Db,
  input: { workspaceId: string; contactId: string; actorUserId: string },
): Promise<void> {
  await db`
    insert into public.privacy_requests (workspace_id, kind, contact_id, actor_user_id)
    values (${input.workspaceId}, 'export', ${input.contactId}, ${input.actorUserId})`;
}
