import * as broadcasts from "@/lib/api/v1/broadcasts";
import { apiRoute } from "@/lib/api/v1/route";

export const POST = apiRoute(broadcasts.cancel);
