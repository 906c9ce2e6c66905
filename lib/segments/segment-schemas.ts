import { z } from "zod";
import type { SegmentFilter } from "./filter";

export const segmentNameSchema = z
  .string({ error: "Name the segment." })
  .trim()
  .min(1, "Name the segment.")
  .max(100, "A segment name can be at most 100 characters.");

export const SEGMENT_EXISTS = "A segment with this name already exists.";
export const SEGMENT_NOT_FOUND = "Segment not found.";

export interface Segment {
  id: string;
  workspace_id: string;
  name: string;
  filter: SegmentFilter;
  created_at: Date;
  updated_at: Date;
}
