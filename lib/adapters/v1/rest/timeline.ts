import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { decodePosition, getContactTimeline, parseKinds } from "@/lib/contacts/get-contact-timeline";
import { TIMELINE_KINDS, type TimelineEntry } from "@/lib/contacts/timeline/types";
import { AppError } from "@/lib/errors/app-error";
import { sanitizeNoteHtml } from "@/lib/html/sanitize";
import type { ApiOperation } from "../operation";
import { decodeCursor, encodeCursor, listSchema, pageQuerySchema } from "../pagination";
import { idParams, timestamp } from "./keyset";

/** The order a timeline cursor belongs to (docs/api.md, "Lists"). */
const ORDER = "timeline:at,kind,id:desc";

export const timelineQuerySchema = pageQuerySchema.extend({
  kind: z
    .string()
    .max(200)
    .optional()
    .refine(
      (v) =>
        v === undefined ||
        v.split(",").every((k) => (TIMELINE_KINDS as readonly string[]).includes(k.trim())),
      `kind is one or more of ${TIMELINE_KINDS.join(", ")}, comma-separated.`,
    )
    .meta({ description: `Only these kinds, comma-separated: ${TIMELINE_KINDS.join(", ")}.` }),
});

export const timelineEntrySchema = z
  .object({
    kind: z.enum(TIMELINE_KINDS),
    id: z
      .string()
      .meta({ description: "The row's id in its own table (an audit entry's is a number as text)." }),
    occurred_at: timestamp,
    author: z.string().meta({ description: "A member's name, an API key, or System." }),
    text: z.string().meta({ description: "The entry as plain text." }),
    html: z.string().meta({ description: "The entry as HTML: every value escaped, notes sanitised." }),
  })
  .meta({ id: "TimelineEntry" });
export const timelineListSchema = listSchema(timelineEntrySchema).meta({ id: "TimelineEntryList" });

const entry = (e: TimelineEntry): z.output<typeof timelineEntrySchema> => ({
  kind: e.kind,
  id: e.id,
  occurred_at: e.occurredAt.toISOString(),
  author: e.author,
  text: e.text,
  html: sanitizeNoteHtml(e.html),
});

/**
 * The contact's timeline (docs/decisions.md, "Contact timeline"), newest first, by cursor: the
 * cursor is the last entry's (time, kind, id), checked before it reaches SQL (400 on `cursor`).
 */
export async function listContactTimeline(
  db: Db,
  workspaceId: string,
  contactId: string,
  q: z.output<typeof timelineQuerySchema>,
): Promise<z.output<typeof timelineListSchema>> {
  const [contact] = await db`
    select 1 from public.contacts where id = ${contactId} and workspace_id = ${workspaceId}`;
  if (!contact) throw new AppError("not_found");
  let before = null;
  if (q.cursor !== undefined) {
    const key = decodeCursor(ORDER, q.cursor, 3);
    before = key.every((k) => typeof k === "string") ? decodePosition(key.join("_")) : null;
    if (!before) throw new AppError("invalid", "cursor is not valid for this list.", { field: "cursor" });
  }
  const page = await getContactTimeline(db, {
    workspaceId,
    contactId,
    before,
    limit: q.limit,
    kinds: parseKinds(q.kind),
  });
  const next = page.next;
  return {
    data: page.data.map(entry),
    next_cursor: next ? encodeCursor(ORDER, [next.micros.toString(), next.kind, next.id]) : null,
  };
}

export const timelineOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/v1/contacts/{id}/timeline",
    operationId: "listContactTimeline",
    scope: "contacts:read",
    summary: "A contact's timeline",
    description:
      "Notes, consent changes, form submissions (with their payload, bounded), RSVPs and registrations, " +
      "purchases and refunds, emails sent and what became of them, merges and source changes: newest first, " +
      "by cursor (pass `next_cursor` back as `cursor`; entries at the same instant are never skipped or repeated). " +
      "`kind` keeps only the kinds named.",
    params: idParams,
    query: timelineQuerySchema,
    success: { status: 200, schema: timelineListSchema, description: "A page of the timeline." },
    errors: [
      { status: 400, codes: ["invalid_request"] },
      { status: 404, codes: ["not_found"] },
    ],
  },
];
