import { getBroadcastOperation } from "@/lib/adapters/v1/broadcasts/handlers";
import { apiRoute } from "@/lib/adapters/v1/route";

// docs/api.md, "Email engagement": a broadcast with its stats (scope email:read).
export const GET = apiRoute(...getBroadcastOperation);
