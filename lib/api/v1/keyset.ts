import { z } from "zod";
import { AppError } from "@/lib/errors/app-error";
import { isUuid, uuidField } from "@/lib/ids/uuid";
import { isTimestampText } from "@/lib/time/calendar";
import { decodeCursor, encodeCursor } from "./pagination";

/**
 * Cursors of the lists that sort by a key and the row id (docs/api.md, "Lists"): the key is
 * the sort column as the database writes it (`sort_key`, full precision), so the next page starts
 * exactly after the last row seen. A cursor is checked before it reaches SQL: a timestamp that
 * Postgres could not read, or an id that is not one, is 400 `invalid_request`, never a 500.
 */
export type KeysetKind = "timestamptz" | "text";

export function keysetAfter(
  order: string,
  cursor: string | undefined,
  kind: KeysetKind,
): { key: string; id: string } | null {
  if (cursor === undefined) return null;
  const [key, id] = decodeCursor(order, cursor, 2);
  if (typeof key !== "string" || typeof id !== "string" || !isUuid(id) || key.length > 400)
    throw invalidCursor();
  if (kind === "timestamptz" && !isTimestampText(key)) throw invalidCursor();
  if (key.includes("\u0000")) throw invalidCursor();
  return { key, id };
}

/** The page of `rows` (read with `limit + 1`) and the cursor after its last row. */
export function keysetPage<R extends { sort_key: string; id: string }, T>(
  order: string,
  rows: R[],
  limit: number,
  map: (row: R) => T,
): { data: T[]; next_cursor: string | null } {
  const more = rows.length > limit;
  const page = more ? rows.slice(0, limit) : rows;
  const last = page[page.length - 1];
  return {
    data: page.map(map),
    next_cursor: more && last ? encodeCursor(order, [last.sort_key, last.id]) : null,
  };
}

/**
 * A page of a keyset list: `read` gets the page's size and the position after the cursor (checked
 * as `keysetAfter` does), with one row more than the page to tell whether another follows.
 */
export async function keysetList<R extends { sort_key: string; id: string }, T>(
  order: string,
  q: { cursor?: string; limit: number },
  kind: KeysetKind,
  read: (page: { limit: number; after: { key: string; id: string } | null }) => Promise<R[]>,
  map: (row: R) => T,
): Promise<{ data: T[]; next_cursor: string | null }> {
  const rows = await read({ limit: q.limit, after: keysetAfter(order, q.cursor, kind) });
  return keysetPage(order, rows, q.limit, map);
}

/** An id from the path names a row of the key's workspace, or the answer is 404 `not_found`. */
export function mustExist(exists: boolean): void {
  if (!exists) throw new AppError("not_found");
}

const invalidCursor = () =>
  new AppError("invalid", "cursor is not valid for this list.", { field: "cursor" });

/** `{id}` in a path: anything but a uuid is 404 `not_found` (apiRoute), like an id of another workspace. */
export const idParams = z.object({ id: uuidField("Not found.") });

/** A time as the v1 objects carry it: ISO 8601 in UTC. */
export const timestamp = z.string().meta({ description: "ISO 8601 (UTC).", format: "date-time" });
export const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

/**
 * Text a client sends that reaches the database: Postgres cannot hold a NUL character (it would
 * be a 500), so it is refused as invalid input like any other bad value.
 */
export const apiText = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .max(max, `${label} can be at most ${max} characters.`)
    .refine((v) => !v.includes("\u0000"), `${label} must not contain a NUL character.`);
