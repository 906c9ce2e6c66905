import { apiRoute } from "@/lib/adapters/v1/route";
import { addNoteRoute } from "@/lib/adapters/v1/contacts/handlers";

// docs/api.md: a note on the contact timeline.
export const POST = apiRoute(...addNoteRoute);
