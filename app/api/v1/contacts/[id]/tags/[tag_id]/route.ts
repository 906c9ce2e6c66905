import { apiRoute } from "@/lib/api/v1/route";
import { removeTagRoute } from "@/lib/api/v1/contacts/handlers";

// DESIGN section 8: untag.
export const DELETE = apiRoute(...removeTagRoute);
