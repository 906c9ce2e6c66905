import { z } from "zod";
import { contactExists } from "@/lib/contacts/contact-exists";
import { decodePosition, getContactTimeline, parseKinds } from "@/lib/contacts/get-contact-timeline";
import { TIMELINE_KINDS, type TimelineEntry } from "@/lib/contacts/timeline/types";
import { AppError } from "@/lib/errors/app-error";
import { sanitizeNoteHtml } from "@/lib/html/sanitize";
import { defineOperation, invalid, notFound } from "./define";
import { idParams, mustExist, timestamp } from "./keyset";
import { decodeCursor, encodeCursor, listSchema, pageQuerySchema } from "./pagination";
import { ok } from "./route";
import { requireScopes, TIMELINE_KIND_SCOPES } from "./scopes";

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
 * GET /api/v1/contacts/{id}/timeline: the contact's timeline (docs/decisions.md, "Contact
 * timeline"), newest first, by cursor: the cursor is the last entry's (time, kind, id), checked
 * before it reaches SQL (400 on `cursor`).
 */
export const list = defineOperation({
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
  errors: [invalid, notFound],
  async handler({ db, key, params, query: q }) {
    const workspaceId = key.workspaceId;
    const contactId = params.id;
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
    mustExist(await contactExists(db, { workspaceId, contactId }));
    let before = null;
    if (q.cursor !== undefined) {
      const position = decodeCursor(ORDER, q.cursor, 3);
      before = position.every((k) => typeof k === "string") ? decodePosition(position.join("_")) : null;
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
    return ok({
      data: page.data.map(entry),
      next_cursor: next ? encodeCursor(ORDER, [next.micros.toString(), next.kind, next.id]) : null,
    });
  },
});
