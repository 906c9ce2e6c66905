"use server";

import { redirect } from "next/navigation";
import { memberAction } from "@/lib/adapters/member-action";
import { mergeContacts } from "@/lib/contacts/merge/merge-contacts";
import { customFieldChoicesOf } from "@/lib/contacts/merge/merge-custom-fields";
import { choicesOf, mergeContactsSchema } from "@/lib/contacts/merge/schemas";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";

// Merging two contacts (docs/decisions.md, "Merging contacts"): both ids are looked up in the
// member's current workspace; the audit entry names B and what moved, never field values.
export const mergeContactsAction = memberAction(
  mergeContactsSchema,
  async (db, input, ctx): Promise<FormState> => {
    const outcome = unwrap(
      await mergeContacts(db, {
        workspaceId: ctx.workspaceId,
        keepId: input.contactId,
        mergeId: input.mergeId,
        choices: choicesOf(input),
        customFields: customFieldChoicesOf(input),
        actorUserId: ctx.userId,
      }),
    );
    ctx.audit.target("contact", outcome.keepId).change(
      { merged_contact_id: outcome.mergeId },
      {
        from_merged_contact: outcome.fromB,
        custom_fields_from_merged_contact: outcome.customFromB,
        moved: Object.fromEntries(Object.entries(outcome.moved).map(([table, m]) => [table, m.moved])),
        consent: outcome.consentChanged ?? "unchanged",
      },
    );
    return {};
  },
  {
    audit: "contact.merged",
    args: ["contactId", "mergeId"],
    after: (_result, input) => redirect(`/contacts/${input.contactId}?merged=1`),
  },
);
