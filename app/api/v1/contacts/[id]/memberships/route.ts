import { apiRoute } from "@/lib/api/v1/route";
import * as subscriptions from "@/lib/api/v1/subscriptions";

export const GET = apiRoute(subscriptions.listForContact);
