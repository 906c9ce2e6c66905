import { apiRoute } from "@/lib/adapters/v1/route";
import { listContacts, createContactRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: the contacts list (spec 4.15 getContacts filters, cursor pages) and create.
export const GET = apiRoute(...listContacts);
export const POST = apiRoute(...createContactRoute);
