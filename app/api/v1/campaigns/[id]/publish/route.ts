import * as campaigns from "@/lib/api/v1/campaigns";
import { apiRoute } from "@/lib/api/v1/route";

export const POST = apiRoute(campaigns.publish);
