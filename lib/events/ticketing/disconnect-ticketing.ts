import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { isWorkspaceAdmin } from "./complete-ticketing-connection";

export const NOT_ADMIN = "Only owners and admins can manage the Eventbrite connection.";

/**
 * Disconnect, the read half: the member must be an owner or admin (the service door bypasses
 * RLS; the token is service-only, docs/decisions.md, "Least-privilege RLS"). Returns the connection's webhook
 * to remove at Eventbrite, outside any transaction, before removeTicketingConnection.
 */
export async function connectionToDisconnect(
  db: Db,
  input: { workspaceId: string; userId: string },
): Promise<Result<{ accessToken: string; webhookId: string | null } | null>> {
  if (!(await isWorkspaceAdmin(db, input.workspaceId, input.userId))) return refused("forbidden", NOT_ADMIN);
  const [connection] = await db`
    select access_token, webhook_id from public.ticketing_connections where workspace_id = ${input.workspaceId}`;
  return {
    data: connection ? { accessToken: connection.access_token, webhookId: connection.webhook_id } : null,
  };
}

/**
 * Disconnect, the write half: the connection row goes, only while it still has the webhook that
 * was removed (a reconnect meanwhile keeps its new connection) and the member is still an owner
 * or admin. Imported events and registrations stay (they are the workspace's history).
 */
export async function removeTicketingConnection(
  db: Db,
  input: { workspaceId: string; userId: string; webhookId: string | null },
): Promise<Result<{ disconnected: boolean }>> {
  if (!(await isWorkspaceAdmin(db, input.workspaceId, input.userId))) return refused("forbidden", NOT_ADMIN);
  const deleted = await db`
    delete from public.ticketing_connections
    where workspace_id = ${input.workspaceId} and webhook_id is not distinct from ${input.webhookId}
    returning id`;
  return { data: { disconnected: deleted.length > 0 } };
}
