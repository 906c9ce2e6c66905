import { publicRoute } from "@/lib/adapters/public-route";
import * as events from "@/lib/api/v1/events";
import { preflight } from "@/lib/api/v1/public-route";
import { apiRoute } from "@/lib/api/v1/route";

export const GET = apiRoute(events.listPublic);
export const OPTIONS = publicRoute({ name: "public events preflight" }, preflight);
