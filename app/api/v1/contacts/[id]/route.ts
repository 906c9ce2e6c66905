import * as contacts from "@/lib/api/v1/contacts";
import { apiRoute } from "@/lib/api/v1/route";

export const GET = apiRoute(contacts.get);
export const PATCH = apiRoute(contacts.update);
export const DELETE = apiRoute(contacts.remove);
