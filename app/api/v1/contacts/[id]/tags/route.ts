import { apiRoute } from "@/lib/adapters/v1/route";
import { addTagsRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: tag by names (missing tags are created).
export const POST = apiRoute(...addTagsRoute);
