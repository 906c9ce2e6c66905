import type { Db } from "@/lib/db/doors";
import { deleteWebhook } from "../eventbrite/client";
import { isWorkspaceAdmin } from "./complete-ticketing-connection";

/**
 * Disconnect: the organisation webhook is removed at Eventbrite, then the connection row.
 * Imported events and registrations stay (they are the workspace's history). Runs through the
 * service door (the token is service-only, attack 7); the user must be an owner or admin.
 */
export async function disconnectTicketing(
  db: Db,
  input: { workspaceId: string; userId: string },
): Promise<{ data: { disconnected: boolean } } | { error: string }> {
  if (!(await isWorkspaceAdmin(db, input.workspaceId, input.userId)))
    return { error: "Only owners and admins can manage the Eventbrite connection." };
  const [connection] = await db`
    select access_token, webhook_id from public.ticketing_connections
    where workspace_id = ${input.workspaceId} for update`;
  if (!connection) return { data: { disconnected: false } };
  if (connection.webhook_id) {
    try {
      await deleteWebhook(connection.access_token, connection.webhook_id);
    } catch (error) {
      console.error("could not remove the Eventbrite webhook", error);
      return { error: "Eventbrite could not be reached to remove the webhook. Try again in a moment." };
    }
  }
  await db`delete from public.ticketing_connections where workspace_id = ${input.workspaceId}`;
  return { data: { disconnected: true } };
}
