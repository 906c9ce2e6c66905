import { apiRoute } from "@/lib/adapters/v1/route";
import { getTopicsRoute, setTopicsRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: the contact's consent per subscription topic, read and set.
export const GET = apiRoute(...getTopicsRoute);
export const POST = apiRoute(...setTopicsRoute);
