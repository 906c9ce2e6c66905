import { apiRoute } from "@/lib/adapters/v1/route";
import { batchContactsRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: up to 1,000 upserts, one result per item, atomic per item.
export const POST = apiRoute(...batchContactsRoute);
