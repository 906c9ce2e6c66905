import { apiRoute } from "@/lib/adapters/v1/route";
import { subscribeRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: consent with the caller's proof (spec 4.9, 3.3); 409 suppressed past a bounce or complaint.
export const POST = apiRoute(...subscribeRoute);
