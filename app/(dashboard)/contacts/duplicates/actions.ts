"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { dismissDuplicate, restoreDuplicate } from "@/lib/contacts/merge/dismiss-duplicate";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { unwrap } from "@/lib/errors/app-error";
import { uuidField } from "@/lib/ids/uuid";

// "Not a duplicate" and its undo (docs/decisions.md, "Merging contacts"): plain forms, so they work
// without JavaScript; the page answers with a notice carrying the pair, whose Undo posts it back.
const pairForm = z.object({
  contactId: uuidField(CONTACT_NOT_FOUND),
  otherContactId: uuidField(CONTACT_NOT_FOUND),
  page: z
    .string()
    .regex(/^\d{1,7}$/)
    .optional()
    .catch(undefined),
});

const back = (query: string, page?: string) => {
  revalidatePath("/contacts/duplicates");
  redirect(`/contacts/duplicates?${query}${page && page !== "1" ? `&page=${page}` : ""}`);
};

export const dismissDuplicateAction = memberAction(
  pairForm,
  async (db, input, ctx) => {
    const { pair, changed } = unwrap(
      await dismissDuplicate(db, { ...input, workspaceId: ctx.workspaceId, userId: ctx.userId }),
    );
    ctx.audit.target("contact", pair[0]).change(null, { other_contact_id: pair[1], not_a_duplicate: true });
    return { pair, changed };
  },
  {
    // a pair marked twice changes nothing: nothing to audit
    audit: (_input, result) => (result.changed ? "contact.duplicate_dismissed" : null),
    refusal: () => redirect("/contacts/duplicates?error=not_found"),
    after: ({ pair }, input) => back(`dismissed=${pair[0]}.${pair[1]}`, input.page),
  },
);

export const restoreDuplicateAction = memberAction(
  pairForm,
  async (db, input, ctx) => {
    const { pair, changed } = unwrap(await restoreDuplicate(db, { ...input, workspaceId: ctx.workspaceId }));
    ctx.audit.target("contact", pair[0]).change(null, { other_contact_id: pair[1], not_a_duplicate: false });
    return { pair, changed };
  },
  {
    audit: (_input, result) => (result.changed ? "contact.duplicate_restored" : null),
    refusal: () => redirect("/contacts/duplicates?error=not_found"),
    after: (_result, input) => back("restored=1", input.page),
  },
);
