"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction, type ActionContext } from "@/lib/adapters/member-action";
import type { Db } from "@/lib/db/doors";
import { refuseIf, unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { deleteSegment } from "@/lib/segments/delete-segment";
import { saveSegment } from "@/lib/segments/save-segment";
import { segmentFormToFilter, type SegmentFormValues } from "@/lib/segments/segment-form";
import { SEGMENT_NOT_FOUND } from "@/lib/segments/segment-schemas";

const segmentId = uuidField(SEGMENT_NOT_FOUND);
/** The builder's fields (lib/segments/segment-form.ts); saveSegment validates the filter they make. */
const builder = z.record(z.string(), z.union([z.string(), z.array(z.string())]).optional());

/**
 * Saves the builder form as a segment, a new one without `segmentId` (docs/decisions.md,
 * "Segments"), and records its name and filter on the audit entry. A refused filter reads
 * on the JSON field.
 */
async function saveFromBuilder(db: Db, ctx: ActionContext, form: SegmentFormValues, segmentId?: string) {
  const segment = unwrap(
    await saveSegment(db, {
      workspaceId: ctx.workspaceId,
      segmentId,
      name: form.name,
      filter: segmentFormToFilter(form),
    }),
    "filterJson",
  );
  ctx.audit.target("segment", segment.id).change(null, { name: segment.name, filter: segment.filter });
}

/** A new segment from the builder form (docs/decisions.md, "Segments"); then its page. */
export const createSegmentAction = memberAction(
  builder,
  async (db, form, ctx): Promise<FormState> => {
    await saveFromBuilder(db, ctx, form as SegmentFormValues);
    return {};
  },
  {
    audit: "segment.created",
    after: (_r, _i, ctx) => redirect(`/segments/${ctx.audit.targetId}`),
  },
);

/** A segment's name and filter replaced from the builder form. */
export const updateSegmentAction = memberAction(
  z.object({ segmentId }).catchall(z.union([z.string(), z.array(z.string())]).optional()),
  async (db, { segmentId, ...form }, ctx): Promise<FormState> => {
    await saveFromBuilder(db, ctx, form as SegmentFormValues, segmentId);
    return { success: "Segment saved." };
  },
  {
    audit: "segment.updated",
    args: ["segmentId"],
    after: (_r, i) => revalidatePath(`/segments/${i.segmentId}`),
  },
);

export const deleteSegmentAction = memberAction(
  z.object({ segmentId }),
  async (db, input, ctx): Promise<FormState> => {
    refuseIf(await deleteSegment(db, { workspaceId: ctx.workspaceId, ...input }));
    ctx.audit.target("segment", input.segmentId);
    return {};
  },
  { audit: "segment.deleted", args: ["segmentId"], after: () => redirect("/segments?deleted=1") },
);
