import { withService } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { deleteWebhook } from "../../eventbrite/client";
import { connectionToDisconnect, removeTicketingConnection } from "../disconnect-ticketing";
import { log } from "@/lib/observability/log";

/**
 * Disconnect: the organisation webhook is removed at Eventbrite, then the connection row. Fetch
 * first, then write (docs/decisions.md, "Provider calls outside transactions"): the connection is read in one
 * short transaction, Eventbrite is called outside any, and the row is deleted in another that checks it is
 * still the same connection. When Eventbrite cannot be reached the row stays, so the member can try again.
 */
export async function disconnectTicketing(input: {
  workspaceId: string;
  userId: string;
}): Promise<Result<{ disconnected: boolean }>> {
  const removed = await removeTicketingWebhook(input);
  if ("error" in removed) return removed;
  if (!removed.data) return { data: { disconnected: false } };
  return withService((db) => removeTicketingConnection(db, { ...input, webhookId: removed.data!.webhookId }));
}

/**
 * The first half of a disconnect, outside any transaction: the connection read in a short one,
 * then its webhook removed at Eventbrite. Null when nothing is connected. The caller then
 * deletes the row with removeTicketingConnection (the dashboard's action does it in its own
 * transaction, with the audit row).
 */
export async function removeTicketingWebhook(input: {
  workspaceId: string;
  userId: string;
}): Promise<Result<{ webhookId: string | null } | null>> {
  const found = await withService((db) => connectionToDisconnect(db, input));
  if ("error" in found) return found;
  if (!found.data) return { data: null };
  const { accessToken, webhookId } = found.data;
  if (webhookId) {
    try {
      await deleteWebhook(accessToken, webhookId);
    } catch (error) {
      log.error({ err: error }, "could not remove the Eventbrite webhook");
      return refused(
        "provider_failed",
        "Eventbrite could not be reached to remove the webhook. Try again in a moment.",
      );
    }
  }
  return { data: { webhookId } };
}
