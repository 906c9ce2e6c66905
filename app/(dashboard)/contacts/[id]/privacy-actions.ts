"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { eraseContact } from "@/lib/privacy/erase-contact";
import { ADMINS_ONLY } from "@/lib/privacy/flows/privacy-requests";

/**
 * docs/decisions.md, "Privacy requests" (GDPR art. 17): erase after the typed confirmation, then back to the
 * list. As the system (the erasure anonymises rows members cannot write), for owners and admins, in the
 * member's own workspace only.
 */
export const eraseContactAction = memberAction(
  z.object({ contactId: uuidField(CONTACT_NOT_FOUND), confirmation: z.string().default("") }),
  async (db, input, ctx): Promise<FormState> => {
    unwrap(
      await eraseContact(db, { ...input, workspaceId: ctx.workspaceId, actorUserId: ctx.userId }),
      "confirmation",
    );
    // the typed confirmation is the contact's address: never in the audit row
    ctx.audit.target("contact", input.contactId).change(null, { erased: true });
    return {};
  },
  {
    audit: "contact.erased",
    door: "service",
    roles: ADMIN_ROLES,
    forbidden: ADMINS_ONLY,
    stepUp: true,
    args: ["contactId"],
    after: () => redirect("/contacts?erased=1"),
  },
);
