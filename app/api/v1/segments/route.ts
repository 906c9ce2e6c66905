import { apiRoute } from "@/lib/api/v1/route";
import * as segments from "@/lib/api/v1/segments";

export const GET = apiRoute(segments.list);
export const POST = apiRoute(segments.create);
