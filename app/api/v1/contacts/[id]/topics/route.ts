import { apiRoute } from "@/lib/adapters/v1/route";
import { getTopicsRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: the contact's consent per subscription topic.
export const GET = apiRoute(...getTopicsRoute);
