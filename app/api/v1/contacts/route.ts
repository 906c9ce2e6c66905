import * as contacts from "@/lib/api/v1/contacts";
import { apiRoute } from "@/lib/api/v1/route";

export const GET = apiRoute(contacts.list);
export const POST = apiRoute(contacts.create);
