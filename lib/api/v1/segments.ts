import { z } from "zod";
import { unwrap } from "@/lib/errors/app-error";
import type { Db } from "@/lib/db/doors";
import { countSegment } from "@/lib/segments/count-segment";
import { deleteSegment } from "@/lib/segments/delete-segment";
import { segmentFilterSchema } from "@/lib/segments/filter";
import { getSegment, listSegmentsPage } from "@/lib/segments/get-segment";
import { saveSegment } from "@/lib/segments/save-segment";
import type { Segment } from "@/lib/segments/segment-schemas";
import { bodyErrors, defineOperation, invalid, notFound } from "./define";
import { apiText, idParams, keysetList, timestamp } from "./keyset";
import { listSchema, pageQuerySchema } from "./pagination";
import { created, noContent, ok } from "./route";
import { filterScopes, requireScopes } from "./scopes";

/**
 * Saved segments with a key (docs/decisions.md, "Segments"): the dashboard's operations
 * (lib/segments), the filter object as the dashboard stores it, validated by saveSegment whoever
 * calls. A segment is a view of contacts, so it takes the contacts scopes: reading one and its
 * live count need `contacts:read`, writing one `contacts:write`; and a condition on another area's
 * data (a purchase, a form, an event, an email) needs that area's read scope to be saved or counted,
 * or the count would answer what the scope keeps back (docs/decisions.md, "Scopes cover what they label").
 */
const filterSchema = segmentFilterSchema.meta({
  id: "SegmentFilter",
  description:
    'The versioned contact filter (docs/decisions.md, "Segments"): AND/OR groups of conditions, any of them negated.',
});

export const segmentWriteSchema = z
  .strictObject({ name: apiText("name", 100), filter: filterSchema })
  .meta({ id: "SegmentWrite" });

export const segmentPatchSchema = z
  .strictObject({ name: apiText("name", 100).optional(), filter: filterSchema.optional() })
  .refine((b) => b.name !== undefined || b.filter !== undefined, "Send name, filter or both.")
  .meta({ id: "SegmentPatch" });

export const segmentObjectSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    filter: filterSchema,
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Segment" });

const segmentListSchema = listSchema(segmentObjectSchema).meta({ id: "SegmentList" });
const segmentCountSchema = z
  .object({ count: z.number().int().meta({ description: "The segment's contacts now." }) })
  .meta({ id: "SegmentCount" });

type V1Segment = z.output<typeof segmentObjectSchema>;
type SegmentRow = Omit<Segment, "filter"> & { filter: unknown };

const segmentObject = (s: SegmentRow): V1Segment => ({
  id: s.id,
  name: s.name,
  filter: s.filter as V1Segment["filter"],
  created_at: s.created_at.toISOString(),
  updated_at: s.updated_at.toISOString(),
});

const segmentOf = async (db: Db, workspaceId: string, segmentId: string) =>
  unwrap(await getSegment(db, { workspaceId, segmentId }));

/** The audit summary of a segment: its name and filter, as the dashboard records them. */
const auditSummary = (s: Segment) => ({ name: s.name, filter: s.filter });

/** a name another segment has, or (DELETE) an automation still using the segment */
const nameTaken = { status: 409 as const, codes: ["conflict"] };

export const list = defineOperation({
  method: "get",
  path: "/api/v1/segments",
  operationId: "listSegments",
  scope: "contacts:read",
  summary: "List saved segments",
  description: "Oldest first.",
  query: pageQuerySchema,
  success: { status: 200, schema: segmentListSchema, description: "A page of segments." },
  errors: [invalid],
  async handler({ db, workspaceId, query }) {
    const read = (page: { limit: number; after: { key: string; id: string } | null }) =>
      listSegmentsPage(db, { workspaceId, ...page });
    return ok(await keysetList("segments:created_at:asc", query, "timestamptz", read, segmentObject));
  },
});

export const create = defineOperation({
  method: "post",
  path: "/api/v1/segments",
  operationId: "createSegment",
  scope: "contacts:write",
  summary: "Save a segment",
  description:
    "A name unique in the workspace and a filter; a filter that does not parse is 400 and nothing is " +
    "stored. Honours `Idempotency-Key`.",
  body: segmentWriteSchema,
  success: { status: 201, schema: segmentObjectSchema, description: "Saved." },
  errors: [...bodyErrors, { status: 409, codes: ["conflict", "idempotency_conflict"] }],
  idempotent: true,
  async handler({ db, key, workspaceId, body, audit }) {
    requireScopes(key, filterScopes(body.filter));
    const segment = unwrap(await saveSegment(db, { workspaceId, name: body.name, filter: body.filter }));
    await audit("segment.created", ["segment", segment.id], { after: auditSummary(segment) });
    return created(segmentObject(segment));
  },
});

export const get = defineOperation({
  method: "get",
  path: "/api/v1/segments/{id}",
  operationId: "getSegment",
  scope: "contacts:read",
  summary: "Read a segment",
  params: idParams,
  success: { status: 200, schema: segmentObjectSchema, description: "The segment." },
  errors: [notFound],
  async handler({ db, workspaceId, params }) {
    return ok(segmentObject(await segmentOf(db, workspaceId, params.id)));
  },
});

export const update = defineOperation({
  method: "patch",
  path: "/api/v1/segments/{id}",
  operationId: "updateSegment",
  scope: "contacts:write",
  summary: "Rename a segment or replace its filter",
  description: "Broadcasts and automations that use it read the new filter from then on.",
  params: idParams,
  body: segmentPatchSchema,
  success: { status: 200, schema: segmentObjectSchema, description: "The segment as it is now." },
  errors: [...bodyErrors, notFound, nameTaken],
  async handler({ db, key, workspaceId, params, body, audit }) {
    if (body.filter) requireScopes(key, filterScopes(body.filter));
    const before = await segmentOf(db, workspaceId, params.id);
    const after = unwrap(
      await saveSegment(db, {
        workspaceId,
        segmentId: params.id,
        name: body.name ?? before.name,
        filter: body.filter ?? before.filter,
      }),
    );
    await audit("segment.updated", ["segment", after.id], {
      before: auditSummary(before),
      after: auditSummary(after),
    });
    return ok(segmentObject(after));
  },
});

export const remove = defineOperation({
  method: "delete",
  path: "/api/v1/segments/{id}",
  operationId: "deleteSegment",
  scope: "contacts:write",
  summary: "Delete a segment",
  description:
    "Broadcasts that targeted it keep their other audience. A segment an automation keeps to is 409 " +
    "`conflict` and stays.",
  params: idParams,
  success: { status: 204, description: "Deleted." },
  errors: [notFound, nameTaken],
  async handler({ db, workspaceId, params, audit }) {
    unwrap(await deleteSegment(db, { workspaceId, segmentId: params.id }));
    await audit("segment.deleted", ["segment", params.id]);
    return noContent();
  },
});

export const count = defineOperation({
  method: "get",
  path: "/api/v1/segments/{id}/count",
  operationId: "countSegment",
  scope: "contacts:read",
  summary: "Count a segment's contacts now",
  description: "Computed on every call, never stored.",
  params: idParams,
  success: { status: 200, schema: segmentCountSchema, description: "The live count." },
  errors: [notFound],
  async handler({ db, key, workspaceId, params }) {
    const segment = await segmentOf(db, workspaceId, params.id);
    requireScopes(key, filterScopes(segment.filter));
    return ok({ count: await countSegment(db, { workspaceId, filter: segment.filter }) });
  },
});
