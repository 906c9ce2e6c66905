"use server";

import { revalidatePath } from "next/cache";
import { headers } from "next/headers";
import { z } from "zod";
import { withMember } from "@/lib/auth/context";
import { manualSubscribe } from "@/lib/consent/manual-subscribe";
import { addManualSuppression, removeSuppression } from "@/lib/consent/suppressions";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { clientIp } from "@/lib/http/client-ip";
import type { FormState } from "@/lib/http/form-state";
import { uuidSchema } from "@/lib/ids/uuid";

// The contact id comes from the page; the workspace always from the member's session, so a
// contact of another workspace is "not found" (and RLS hides it as a second wall).
const contactIdSchema = uuidSchema;

function refresh(contactId: string) {
  revalidatePath(`/contacts/${contactId}`);
}

/** Spec 4.9: manual subscribe with a legal basis, an attestation and the admin's IP. */
export async function manualSubscribeAction(
  contactId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const id = contactIdSchema.safeParse(contactId);
  if (!id.success) return { message: "Contact not found." };
  const ip = clientIp(await headers());
  const result = await withMember((db, ctx) =>
    manualSubscribe(db, {
      workspaceId: ctx.workspace.workspaceId,
      contactId: id.data,
      legalBasis: form.get("legalBasis") ?? undefined,
      attested: form.get("attested") === "on",
      ip,
      actorUserId: ctx.userId,
    }),
  );
  if ("error" in result)
    return result.field ? { errors: { [result.field]: result.error } } : { message: result.error };
  refresh(id.data);
  return { success: "The contact is subscribed." };
}

/** Spec 4.9: plain unsubscribe, no confirmation step. */
export async function unsubscribeAction(contactId: string, _prev: FormState): Promise<FormState> {
  const id = contactIdSchema.safeParse(contactId);
  if (!id.success) return { message: "Contact not found." };
  const result = await withMember((db, ctx) =>
    unsubscribeContact(db, {
      contactId: id.data,
      workspaceId: ctx.workspace.workspaceId,
      flow: "manual_unsubscribe",
      actorUserId: ctx.userId,
    }),
  );
  if ("error" in result) return { message: "Contact not found." };
  refresh(id.data);
  return { success: "The contact is unsubscribed." };
}

/** Spec 2.6: an administrator blocks all email to the contact ('manual'). */
export async function addManualBlockAction(contactId: string, _prev: FormState): Promise<FormState> {
  const id = contactIdSchema.safeParse(contactId);
  if (!id.success) return { message: "Contact not found." };
  const result = await withMember((db, ctx) =>
    addManualSuppression(db, {
      workspaceId: ctx.workspace.workspaceId,
      contactId: id.data,
      actorUserId: ctx.userId,
    }),
  );
  if ("error" in result) return { message: result.error };
  refresh(id.data);
  return {
    success: result.data.created ? "Email to this contact is blocked." : "Email was already blocked.",
  };
}

const reasonSchema = z.enum(["bounce", "unsubscribe", "manual", "complaint"]);

/** Removes a suppression of any reason but 'complaint' (spec 3.3). */
export async function removeSuppressionAction(
  contactId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const id = contactIdSchema.safeParse(contactId);
  const reason = reasonSchema.safeParse(form.get("reason"));
  if (!id.success || !reason.success) return { message: "Unknown suppression." };
  const result = await withMember((db, ctx) =>
    removeSuppression(db, {
      workspaceId: ctx.workspace.workspaceId,
      contactId: id.data,
      reason: reason.data,
      actorUserId: ctx.userId,
    }),
  );
  if ("error" in result) return { message: result.error };
  refresh(id.data);
  return {
    success: result.data.removed ? `The ${reason.data} suppression is removed.` : "Nothing to remove.",
  };
}
