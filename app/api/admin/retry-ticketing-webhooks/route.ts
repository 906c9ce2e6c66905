import { hasServiceKey } from "@/lib/auth/service-key";
import { processPendingTicketingDeliveries } from "@/lib/events/ticketing/process-ticketing-deliveries";

/**
 * For a scheduler (cron): processes the ticketing deliveries left undone (a crash after the
 * 200, or a failure) that are older than a minute. `Authorization: Bearer <SERVICE_API_KEY>`.
 */
async function retry(request: Request) {
  if (!hasServiceKey(request.headers))
    return Response.json({ error: "Send Authorization: Bearer <SERVICE_API_KEY>." }, { status: 401 });
  return Response.json(await processPendingTicketingDeliveries());
}

export { retry as GET, retry as POST };
