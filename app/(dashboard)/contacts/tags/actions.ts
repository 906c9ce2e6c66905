"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { refuseIf, unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { createTag } from "@/lib/tags/create-tag";
import { deleteTag } from "@/lib/tags/delete-tag";
import { renameTag } from "@/lib/tags/rename-tag";
import { TAG_NOT_FOUND } from "@/lib/tags/tag-schemas";

const tagId = uuidField(TAG_NOT_FOUND);
const refresh = () => revalidatePath("/contacts/tags");

export const createTagAction = memberAction(
  z.object({ name: z.string() }),
  async (db, { name }, ctx): Promise<FormState> => {
    const tag = unwrap(await createTag(db, { workspaceId: ctx.workspaceId, name }), "name");
    ctx.audit.target("tag", tag.id).change(null, { name: tag.name });
    return { success: `Tag '${tag.name}' created.`, values: { name: "" } };
  },
  { audit: "tag.created", after: refresh },
);

export const renameTagAction = memberAction(
  z.object({ tagId, name: z.string() }),
  async (db, input, ctx): Promise<FormState> => {
    const tag = unwrap(await renameTag(db, { workspaceId: ctx.workspaceId, ...input }), "name");
    ctx.audit.target("tag", tag.id).change(null, { name: tag.name });
    return { success: `Renamed to '${tag.name}'.`, values: { name: tag.name } };
  },
  { audit: "tag.renamed", args: ["tagId"], after: refresh },
);

export const deleteTagAction = memberAction(
  z.object({ tagId }),
  async (db, input, ctx): Promise<FormState> => {
    refuseIf(await deleteTag(db, { workspaceId: ctx.workspaceId, ...input }));
    ctx.audit.target("tag", input.tagId);
    return { success: "Tag deleted." };
  },
  { audit: "tag.deleted", args: ["tagId"], after: refresh },
);
