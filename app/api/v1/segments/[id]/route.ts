import { apiRoute } from "@/lib/api/v1/route";
import * as segments from "@/lib/api/v1/segments";

export const GET = apiRoute(segments.get);
export const PATCH = apiRoute(segments.update);
export const DELETE = apiRoute(segments.remove);
