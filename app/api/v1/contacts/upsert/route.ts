import { apiRoute } from "@/lib/api/v1/route";
import { upsertContactRoute } from "@/lib/api/v1/contacts/handlers";

// DESIGN section 8: create by email (201) or merge by spec 4.10 (200).
export const POST = apiRoute(...upsertContactRoute);
