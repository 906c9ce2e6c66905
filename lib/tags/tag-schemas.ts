import { z } from "zod";

export const tagNameSchema = z
  .string({ error: "Name the tag." })
  .trim()
  .min(1, "Name the tag.")
  .max(100, "A tag name can be at most 100 characters.");

export const TAG_EXISTS = "A tag with this name already exists.";
export const TAG_NOT_FOUND = "Tag not found.";

export interface Tag {
  id: string;
  workspace_id: string;
  name: string;
  color: string | null;
  created_at: Date;
}

export function isUniqueViolation(error: unknown, constraint: string): boolean {
  const e = error as { code?: string; constraint_name?: string };
  return e?.code === "23505" && e.constraint_name === constraint;
}
