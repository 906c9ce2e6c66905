import * as forms from "@/lib/api/v1/forms";
import { apiRoute } from "@/lib/api/v1/route";

export const GET = apiRoute(forms.listSubmissions);
