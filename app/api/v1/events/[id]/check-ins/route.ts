import * as events from "@/lib/api/v1/events";
import { apiRoute } from "@/lib/api/v1/route";

export const POST = apiRoute(events.checkIn);
