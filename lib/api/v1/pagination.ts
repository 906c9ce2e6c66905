import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;

/** `?limit=` (1-100, default 25) and `?cursor=` of every v1 list (docs/api.md, "Lists"). */
export const pageQuerySchema = z.object({
  limit: z.coerce
    .number({ error: `limit must be a whole number from 1 to ${MAX_LIMIT}.` })
    .int(`limit must be a whole number from 1 to ${MAX_LIMIT}.`)
    .min(1, `limit must be a whole number from 1 to ${MAX_LIMIT}.`)
    .max(MAX_LIMIT, `limit must be a whole number from 1 to ${MAX_LIMIT}.`)
    .default(DEFAULT_LIMIT),
  cursor: z.string().max(2000, "cursor is not valid.").optional(),
});

/** A list answer: `{"data": [...], "next_cursor": string | null}`. */
export function listSchema<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), next_cursor: z.string().nullable() });
}

export type Keyset = readonly (string | number | boolean | null)[];

/**
 * An opaque cursor: the last row's sort key and id (keyset), bound to the list's order (`order`,
 * e.g. "created_at:desc"), so a cursor of one order is refused by another. base64url JSON.
 */
export function encodeCursor(order: string, key: Keyset): string {
  return Buffer.from(JSON.stringify([order, ...key]), "utf8").toString("base64url");
}

/** The keyset of a cursor made for `order`, or 400 `invalid_request` (field `cursor`). */
export function decodeCursor(order: string, cursor: string, length: number): Keyset {
  const refuse = () => new AppError("invalid", "cursor is not valid for this list.", { field: "cursor" });
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw refuse();
  }
  if (!Array.isArray(parsed) || parsed[0] !== order || parsed.length !== length + 1) throw refuse();
  const key = parsed.slice(1);
  if (!key.every((v) => v === null || ["string", "number", "boolean"].includes(typeof v))) throw refuse();
  return key as Keyset;
}

/**
 * A page from `limit + 1` rows read in keyset order: the first `limit`, and the cursor of the
 * last of them when there are more.
 */
export function pageOf<R, T>(
  rows: R[],
  limit: number,
  cursorOf: (row: R) => string,
  map: (row: R) => T,
): { data: T[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  return { data: page.map(map), next_cursor: more ? cursorOf(page[page.length - 1]) : null };
}
