import { apiRoute } from "@/lib/adapters/v1/route";
import { unsubscribeRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: unsubscribe as spec 4.7.
export const POST = apiRoute(...unsubscribeRoute);
