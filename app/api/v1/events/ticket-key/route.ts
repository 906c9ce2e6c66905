import * as events from "@/lib/api/v1/events";
import { apiRoute } from "@/lib/api/v1/route";

export const GET = apiRoute(events.ticketKey);
