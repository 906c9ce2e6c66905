import { apiRoute } from "@/lib/api/v1/route";
import * as webhookEndpoints from "@/lib/api/v1/webhook-endpoints";

export const GET = apiRoute(webhookEndpoints.list);
export const POST = apiRoute(webhookEndpoints.create);
