"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { withMember } from "@/lib/auth/context";
import { createContact } from "@/lib/contacts/create-contact";
import { deleteContact } from "@/lib/contacts/delete-contact";
import { getContactById } from "@/lib/contacts/get-contact-by-id";
import { getContacts } from "@/lib/contacts/get-contacts";
import type { GetContactsParams } from "@/lib/contacts/get-contacts-params";
import { getDistinctSources } from "@/lib/contacts/get-distinct-sources";
import { createContactSchema, updateContactSchema } from "@/lib/contacts/schemas";
import { DUPLICATE_EMAIL_ERROR } from "@/lib/contacts/types";
import { updateContact } from "@/lib/contacts/update-contact";
import { updateContactSource } from "@/lib/contacts/update-contact-source";
import { clientIp } from "@/lib/http/client-ip";
import { fieldErrors, type FormState } from "@/lib/http/form-state";

// Spec 4.15 operations for the dashboard: the workspace is always the member's current one.

export async function getContactsAction(params: Omit<GetContactsParams, "workspaceId">) {
  return withMember((db, ctx) => getContacts(db, { ...params, workspaceId: ctx.workspace.workspaceId }));
}

export async function getContactByIdAction(contactId: string) {
  return withMember((db, ctx) => getContactById(db, { contactId, workspaceId: ctx.workspace.workspaceId }));
}

export async function getDistinctSourcesAction() {
  return withMember((db, ctx) => getDistinctSources(db, { workspaceId: ctx.workspace.workspaceId }));
}

const formValues = (form: FormData) =>
  Object.fromEntries([...form].filter(([, v]) => typeof v === "string")) as Record<string, string>;

/** A duplicate email is shown on the email field, any other refusal above the form. */
const refusal = (error: string, values: Record<string, string>): FormState =>
  error === DUPLICATE_EMAIL_ERROR ? { errors: { email: error }, values } : { message: error, values };

export async function createContactAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = formValues(form);
  const parsed = createContactSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const ip = clientIp(await headers());
  const result = await withMember((db, ctx) =>
    createContact(db, { ...parsed.data, workspaceId: ctx.workspace.workspaceId, ip }),
  );
  if ("error" in result) return refusal(result.error, values);
  redirect(`/contacts/${result.data.id}`);
}

export async function updateContactAction(
  contactId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const values = formValues(form);
  const parsed = updateContactSchema.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  const result = await withMember((db, ctx) =>
    updateContact(db, { ...parsed.data, contactId, workspaceId: ctx.workspace.workspaceId }),
  );
  if ("error" in result) return refusal(result.error, values);
  redirect(`/contacts/${contactId}`);
}

export async function updateContactSourceAction(
  contactId: string,
  _prev: FormState,
  form: FormData,
): Promise<FormState> {
  const values = formValues(form);
  const result = await withMember((db, ctx) =>
    updateContactSource(db, {
      contactId,
      workspaceId: ctx.workspace.workspaceId,
      newSource: values.source ?? "",
      reason: values.reason ?? "",
    }),
  );
  if ("error" in result) return { message: result.error, values };
  redirect(`/contacts/${contactId}`);
}

export async function deleteContactAction(contactId: string, _prev: FormState): Promise<FormState> {
  const result = await withMember((db, ctx) =>
    deleteContact(db, { contactId, workspaceId: ctx.workspace.workspaceId }),
  );
  if ("error" in result) return { message: result.error };
  redirect("/contacts?deleted=1");
}
