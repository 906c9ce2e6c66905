import { apiRoute } from "@/lib/api/v1/route";
import * as timeline from "@/lib/api/v1/timeline";

export const GET = apiRoute(timeline.list);
