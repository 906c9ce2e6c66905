"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { manualSubscribe } from "@/lib/consent/manual-subscribe";
import { addManualSuppression, removeSuppression } from "@/lib/consent/suppressions";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { AppError, unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import type { Role } from "@/lib/workspaces/list-memberships";

// The contact id comes from the page; the workspace always from the member's session, so a
// contact of another workspace is "not found" (and RLS hides it as a second wall).
const contactId = uuidField(CONTACT_NOT_FOUND);
const EVERY_ROLE: Role[] = ["owner", "admin", "member"];

const refresh = (_result: unknown, input: { contactId: string }) =>
  revalidatePath(`/contacts/${input.contactId}`);
/** unsubscribe and block are buttons without fields: a refusal is the panel's message */
const asMessage = (error: AppError): FormState => ({ message: error.message, code: error.code });

/** Spec 4.9: manual subscribe with a legal basis, an attestation and the admin's IP. */
export const manualSubscribeAction = memberAction(
  z.object({ contactId, legalBasis: z.unknown().optional(), attested: z.unknown().optional() }),
  async (db, input, ctx): Promise<FormState> => {
    const result = await manualSubscribe(db, {
      workspaceId: ctx.workspaceId,
      contactId: input.contactId,
      legalBasis: input.legalBasis ?? undefined,
      attested: input.attested === "on",
      ip: ctx.ip,
      actorUserId: ctx.userId,
    });
    unwrap(result);
    ctx.audit.target("contact", input.contactId).change(null, { legalBasis: input.legalBasis });
    return { success: "The contact is subscribed." };
  },
  { audit: "contact.subscribed", args: ["contactId"], after: refresh },
);

const NOTHING_REMOVED = "Nothing to remove.";
const UNSUBSCRIBED = "The contact is unsubscribed.";

/**
 * Spec 4.9: plain unsubscribe, no confirmation step. The service door: members may add only
 * 'manual' suppressions (docs/decisions.md, "Least-privilege RLS") and the 'unsubscribe' one is the system's
 * to write; the contact must be in the member's workspace.
 */
export const unsubscribeAction = memberAction(
  z.object({ contactId }),
  async (db, input, ctx): Promise<FormState> => {
    const result = await unsubscribeContact(db, {
      contactId: input.contactId,
      workspaceId: ctx.workspaceId,
      flow: "manual_unsubscribe",
      actorUserId: ctx.userId,
    });
    if ("error" in result) throw new AppError("not_found", CONTACT_NOT_FOUND);
    ctx.audit.target("contact", input.contactId).change(null, { changed: result.data.changed });
    return { success: UNSUBSCRIBED };
  },
  {
    audit: "contact.unsubscribed",
    door: "service",
    roles: EVERY_ROLE,
    args: ["contactId"],
    refusal: asMessage,
    after: refresh,
  },
);

const BLOCKED = "Email to this contact is blocked.";

/** Spec 2.6: an administrator blocks all email to the contact ('manual'). */
export const addManualBlockAction = memberAction(
  z.object({ contactId }),
  async (db, input, ctx): Promise<FormState> => {
    const { created } = unwrap(
      await addManualSuppression(db, { ...input, workspaceId: ctx.workspaceId, actorUserId: ctx.userId }),
    );
    ctx.audit.target("contact", input.contactId).change(null, { reason: "manual" });
    return { success: created ? BLOCKED : "Email was already blocked." };
  },
  {
    // a second block changes nothing
    audit: (_input, result) => (result.success === BLOCKED ? "contact.suppressed" : null),
    args: ["contactId"],
    refusal: asMessage,
    after: refresh,
  },
);

const UNKNOWN_SUPPRESSION = "Unknown suppression.";
const reasonSchema = z.enum(["bounce", "unsubscribe", "manual", "complaint"]);

/** Removes a suppression of any reason but 'complaint' (spec 3.3). */
export const removeSuppressionAction = memberAction(
  z.object({ contactId: uuidField(UNKNOWN_SUPPRESSION), reason: z.unknown().optional() }),
  async (db, input, ctx): Promise<FormState> => {
    // a hidden field of the dialog: a reason it cannot name is the dialog's message
    const reason = reasonSchema.safeParse(input.reason);
    if (!reason.success) throw new AppError("invalid", UNKNOWN_SUPPRESSION);
    const { removed } = unwrap(
      await removeSuppression(db, {
        contactId: input.contactId,
        reason: reason.data,
        workspaceId: ctx.workspaceId,
        actorUserId: ctx.userId,
      }),
    );
    ctx.audit.target("contact", input.contactId).change(null, { reason: reason.data });
    return { success: removed ? `The ${reason.data} suppression is removed.` : NOTHING_REMOVED };
  },
  {
    // removing a suppression the contact does not have changes nothing
    audit: (_input, result) =>
      result.success && result.success !== NOTHING_REMOVED ? "contact.unsuppressed" : null,
    args: ["contactId"],
    after: refresh,
  },
);
