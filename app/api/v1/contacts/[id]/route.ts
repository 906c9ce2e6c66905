import { apiRoute } from "@/lib/adapters/v1/route";
import { getContactRoute, patchContactRoute, deleteContactRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: read, update by spec 4.10, delete.
export const GET = apiRoute(...getContactRoute);
export const PATCH = apiRoute(...patchContactRoute);
export const DELETE = apiRoute(...deleteContactRoute);
