import * as contacts from "@/lib/api/v1/contacts";
import { apiRoute } from "@/lib/api/v1/route";

export const POST = apiRoute(contacts.addTags);
