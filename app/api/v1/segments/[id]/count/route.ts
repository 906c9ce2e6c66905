import { apiRoute } from "@/lib/adapters/v1/route";
import { countSegmentRoute } from "@/lib/adapters/v1/rest/segments";

// docs/api.md: a segment's live count (docs/decisions.md, "Segments").
export const GET = apiRoute(...countSegmentRoute);
