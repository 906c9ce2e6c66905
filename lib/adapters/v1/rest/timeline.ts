import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { decodePosition, getContactTimeline, parseKinds } from "@/lib/contacts/get-contact-timeline";
import { TIMELINE_KINDS, type TimelineEntry } from "@/lib/contacts/timeline/types";
import { AppError } from "@/lib/errors/app-error";
import { sanitizeNoteHtml } from "@/lib/html/sanitize";
import type { ApiKeyActor } from "../key-auth";
import type { ApiOperation } from "../operation";
import { requireScopes, TIMELINE_KIND_SCOPES } from "../scopes";
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
  key: ApiKeyActor,
  contactId: string,
  q: z.output<typeof timelineQuerySchema>,
): Promise<z.output<typeof timelineListSchema>> {
  const workspaceId = key.workspaceId;
  // each kind is the data of its scope (docs/decisions.md, "Scopes cover what they label"): asked
  // for, it needs that scope; not asked for, the kinds the key may read
  const asked = parseKinds(q.kind);
  requireScopes(
    key,
    asked.map((kind) => TIMELINE_KIND_SCOPES[kind]),
  );
  const kinds = asked.length
    ? asked
    : TIMELINE_KINDS.filter((kind) => key.scopes.includes(TIMELINE_KIND_SCOPES[kind]));
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
    kinds,
    withoutIp: true,
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
      '`kind` keeps only the kinds named. Each kind is the data of a scope (docs/api.md, "Scopes and the data they reach"): ' +
      "without `kind`, the kinds the key's scopes cover; a `kind` it does not cover is 403. Consent entries never show the IP address.",
    params: idParams,
    query: timelineQuerySchema,
    success: { status: 200, schema: timelineListSchema, description: "A page of the timeline." },
    errors: [
      { status: 400, codes: ["invalid_request"] },
      { status: 404, codes: ["not_found"] },
    ],
  },
];
