"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { AppError, refuseIf, unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { addContactNote } from "@/lib/notes/add-contact-note";
import { attachTagByName } from "@/lib/tags/attach-tag-by-name";
import { detachTag } from "@/lib/tags/detach-tag";
import { TAG_NOT_FOUND } from "@/lib/tags/tag-schemas";

// The contact page's own actions: notes and tags. The workspace is the member's current one.

const contactId = uuidField(CONTACT_NOT_FOUND);
const refresh = (_result: unknown, input: { contactId: string }) =>
  revalidatePath(`/contacts/${input.contactId}`);

export const addNoteAction = memberAction(
  z.object({ contactId, text: z.string().default("") }),
  async (db, input, ctx): Promise<FormState> => {
    const note = unwrap(
      await addContactNote(db, { ...input, workspaceId: ctx.workspaceId, createdBy: ctx.userId }),
      "text",
    );
    ctx.audit.target("contact", input.contactId).change(null, { noteId: note.id });
    return { success: "Note added." };
  },
  { audit: "contact.note_added", args: ["contactId"], after: refresh },
);

const TAGGED = "Tagged ";

export const attachTagAction = memberAction(
  z.object({ contactId, name: z.string().default("") }),
  async (db, input, ctx): Promise<FormState> => {
    const result = await attachTagByName(db, { ...input, workspaceId: ctx.workspaceId });
    refuseIf(result, "name");
    ctx.audit.target("contact", input.contactId).change(null, { tagId: result.tagId });
    const name = input.name.trim();
    return { success: result.attached ? `${TAGGED}${name}.` : `Already tagged ${name}.` };
  },
  {
    // tagging a contact that has the tag changes nothing
    audit: (_input, result) => (result.success?.startsWith(TAGGED) ? "contact.tagged" : null),
    args: ["contactId"],
    after: refresh,
  },
);

export const detachTagAction = memberAction(
  z.object({ contactId, tagId: uuidField(TAG_NOT_FOUND) }),
  async (db, input, ctx): Promise<void> => {
    const { detached } = await detachTag(db, { ...input, workspaceId: ctx.workspaceId });
    // nothing to remove: nothing changed, nothing to audit (the form shows no message either way)
    if (!detached) throw new AppError("not_found", TAG_NOT_FOUND);
    ctx.audit.target("contact", input.contactId).change(null, { tagId: input.tagId });
  },
  { audit: "contact.untagged", args: ["contactId", "tagId"], refusal: () => undefined, after: refresh },
);
