import { apiRoute } from "@/lib/adapters/v1/route";
import { deleteSegmentRoute, getSegmentRoute, patchSegmentRoute } from "@/lib/adapters/v1/rest/segments";

// docs/api.md: read, rename or refilter, delete a saved segment.
export const GET = apiRoute(...getSegmentRoute);
export const PATCH = apiRoute(...patchSegmentRoute);
export const DELETE = apiRoute(...deleteSegmentRoute);
