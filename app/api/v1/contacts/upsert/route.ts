import { apiRoute } from "@/lib/adapters/v1/route";
import { upsertContactRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: create by email (201) or merge by spec 4.10 (200).
export const POST = apiRoute(...upsertContactRoute);
