import { apiRoute } from "@/lib/adapters/v1/route";
import { removeTagRoute } from "@/lib/adapters/v1/contacts/handlers";

// DESIGN section 8: untag.
export const DELETE = apiRoute(...removeTagRoute);
