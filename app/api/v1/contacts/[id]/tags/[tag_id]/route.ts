import { apiRoute } from "@/lib/adapters/v1/route";
import { removeTagRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: untag.
export const DELETE = apiRoute(...removeTagRoute);
