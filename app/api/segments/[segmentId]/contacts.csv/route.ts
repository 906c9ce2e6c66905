import { z } from "zod";
import { memberRoute } from "@/lib/adapters/member-route";
import { unwrap } from "@/lib/errors/app-error";
import { uuidField } from "@/lib/ids/uuid";
import { getSegment } from "@/lib/segments/get-segment";
import { segmentContactsCsv } from "@/lib/segments/segment-contacts-csv";
import { SEGMENT_NOT_FOUND } from "@/lib/segments/segment-schemas";

/**
 * A saved segment's contacts as CSV (docs/decisions.md, "Segments"), for members of its workspace
 * after a step-up (a copy of the contacts leaves with it); audited as an export.
 */
export const GET = memberRoute(
  {
    name: "segment export",
    params: z.object({ segmentId: uuidField(SEGMENT_NOT_FOUND) }),
    audit: "contacts.exported",
    stepUp: true,
  },
  async (db, _request, { segmentId }, ctx) => {
    const segment = unwrap(await getSegment(db, { workspaceId: ctx.workspaceId, segmentId }));
    const { csv, rows } = await segmentContactsCsv(db, {
      workspaceId: ctx.workspaceId,
      filter: segment.filter,
    });
    ctx.audit.target("segment", segmentId).change(null, { segment: segment.name, rows });
    return new Response(csv, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="segment-${segmentId}.csv"`,
        "cache-control": "no-store",
      },
    });
  },
);
