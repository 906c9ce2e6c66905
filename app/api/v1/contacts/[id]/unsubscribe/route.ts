import { apiRoute } from "@/lib/api/v1/route";
import { unsubscribeRoute } from "@/lib/api/v1/contacts/handlers";

// DESIGN section 8: unsubscribe as spec 4.7.
export const POST = apiRoute(...unsubscribeRoute);
