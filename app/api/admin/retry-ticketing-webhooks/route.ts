import { serviceRoute } from "@/lib/adapters/service-route";
import { processPendingTicketingDeliveries } from "@/lib/events/ticketing/flows/process-ticketing-deliveries";

/**
 * For a scheduler (cron): processes the ticketing deliveries left undone (a crash after the
 * 200, or a failure) that are older than a minute. `Authorization: Bearer <SERVICE_API_KEY>`.
 */
const options = { name: "retry ticketing webhooks" };
const retry = async () => Response.json(await processPendingTicketingDeliveries());

export const GET = serviceRoute(options, retry);
export const POST = serviceRoute(options, retry);
