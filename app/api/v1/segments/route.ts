import { apiRoute } from "@/lib/adapters/v1/route";
import { createSegmentRoute, listSegmentsRoute } from "@/lib/adapters/v1/rest/segments";

// docs/api.md: saved segments, oldest first; save one (docs/decisions.md, "Segments").
export const GET = apiRoute(...listSegmentsRoute);
export const POST = apiRoute(...createSegmentRoute);
