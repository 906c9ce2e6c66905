import { withService } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { fetchTicketingSnapshot } from "../fetch-ticketing-snapshot";
import { importTicketingSnapshot } from "../import-ticketing-snapshot";
import { getTicketingConnection } from "../ticketing-connection";
import { outcomeOf, type JobOutcome } from "@/lib/jobs/outcome";
import { log } from "@/lib/observability/log";

const NOT_CONNECTED = "Connect Eventbrite first.";

/**
 * Import and sync (spec 4.5, 2.7), as a job: reads the connection, fetches the snapshot
 * from Eventbrite with no transaction open, then writes it in one transaction. Historical:
 * no auto-subscribe, no audit notes, no automations. The caller has checked that the
 * workspace is the signed-in admin's (or is the system, after connecting).
 */
export async function runTicketingSync(
  workspaceId: string,
): Promise<Result<{ events: number; registrations: number }>> {
  const connection = await withService((db) => getTicketingConnection(db, workspaceId));
  if (!connection?.organization_id) return refused("not_found", NOT_CONNECTED);
  let snapshot;
  try {
    snapshot = await fetchTicketingSnapshot(connection.access_token, connection.organization_id);
  } catch (error) {
    log.error({ err: error }, "ticketing sync: Eventbrite could not be read");
    return refused("provider_failed", "Eventbrite could not be reached. Try again in a moment.");
  }
  const data = await withService((db) => importTicketingSnapshot(db, { workspaceId, snapshot }));
  return { data };
}

/**
 * The 'ticketing-sync' job: the sync, retried when Eventbrite could not be read. A workspace that
 * disconnected meanwhile (`not_found`) has nothing to sync: done, not failed.
 */
export async function ticketingSyncJob(
  workspaceId: string,
): Promise<JobOutcome<{ events: number; registrations: number }>> {
  return outcomeOf(await runTicketingSync(workspaceId), ["not_found"]);
}
