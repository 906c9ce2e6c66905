"use server";

import { setContactLocale } from "@/lib/contacts/contact-locale";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { createContact } from "@/lib/contacts/create-contact";
import { deleteContact } from "@/lib/contacts/delete-contact";
import { editedFields, readEditableFields } from "@/lib/contacts/edited-fields";
import { getContactById } from "@/lib/contacts/get-contact-by-id";
import { createContactSchema, updateContactSchema } from "@/lib/contacts/schemas";
import { CONTACT_NOT_FOUND } from "@/lib/contacts/types";
import { updateContact } from "@/lib/contacts/update-contact";
import { updateContactSource } from "@/lib/contacts/update-contact-source";
import { AppError, refuseIf, unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { checkedFormCustomFields } from "@/lib/contacts/custom-fields/form-input";
import { customFieldsAuditSummary } from "@/lib/contacts/custom-fields/diff-custom-fields";
import { writeCustomFieldValues } from "@/lib/contacts/custom-fields/write-custom-field-values";

// Spec 4.15 operations for the dashboard: the workspace is always the member's current one.

/** The custom fields' controls (`cf.<key>`), kept beside the parsed fields. */
const withCustomFields = z.preprocess(
  (raw) => Object.fromEntries(Object.entries(raw ?? {}).filter(([key]) => key.startsWith("cf."))),
  z.record(z.string(), z.unknown()),
);

const contactId = uuidField(CONTACT_NOT_FOUND);

export const getContactByIdAction = memberAction(
  z.object({ contactId }),
  async (db, input, ctx) => getContactById(db, { ...input, workspaceId: ctx.workspaceId }),
  { audit: false, args: ["contactId"] }, // reads only
);

/** The contact's language as the form sends it (docs/decisions.md, "Recipient languages"); empty: not known. */
const withLocale = z.object({ locale: z.string().max(100).default("") });

export const createContactAction = memberAction(
  createContactSchema.and(withCustomFields).and(withLocale),
  async (db, input, ctx): Promise<FormState> => {
    const custom = await checkedFormCustomFields(db, ctx.workspaceId, input);
    const result = await createContact(db, { ...input, workspaceId: ctx.workspaceId, ip: ctx.ip });
    const contact = unwrap(result); // contact_exists names the email field
    if (input.locale.trim())
      unwrap(
        await setContactLocale(db, {
          workspaceId: ctx.workspaceId,
          contactId: contact.id,
          locale: input.locale,
        }),
      );
    unwrap(
      await writeCustomFieldValues(db, {
        workspaceId: ctx.workspaceId,
        contactId: contact.id,
        values: custom.values,
      }),
    );
    ctx.audit
      .target("contact", contact.id)
      .change(null, { source: "manual", isSubscribed: input.isSubscribed });
    return {};
  },
  { audit: "contact.created", after: (_result, _input, ctx) => redirect(`/contacts/${ctx.audit.targetId}`) },
);

export const updateContactAction = memberAction(
  z.object({ contactId }).and(updateContactSchema).and(withCustomFields).and(withLocale),
  async (db, { contactId, locale, ...fields }, ctx): Promise<FormState> => {
    const before = await readEditableFields(db, { workspaceId: ctx.workspaceId, contactId });
    if (!before) throw new AppError("not_found", CONTACT_NOT_FOUND);
    const [stored] = await db<{ custom_fields: Record<string, never> }[]>`
      select custom_fields from public.contacts where id = ${contactId} and workspace_id = ${ctx.workspaceId}`;
    const custom = await checkedFormCustomFields(db, ctx.workspaceId, fields, stored?.custom_fields);
    const result = await updateContact(db, { ...fields, contactId, workspaceId: ctx.workspaceId });
    unwrap(result);
    const values = unwrap(
      await writeCustomFieldValues(db, { workspaceId: ctx.workspaceId, contactId, values: custom.values }),
    );
    const language = unwrap(
      await setContactLocale(db, { workspaceId: ctx.workspaceId, contactId, locale: locale.trim() || null }),
    );
    // the names of the fields changed, never their values (personal data); custom fields not
    // marked personal with their values (docs/decisions.md, "Custom fields")
    const summary = customFieldsAuditSummary(custom.fields, values.before, values.after, values.changed);
    ctx.audit.target("contact", contactId).change(summary && { custom_fields: summary.before }, {
      changed: [
        ...editedFields(before, fields),
        ...(language.changed ? ["locale"] : []),
        ...values.changed.map((k) => `custom_fields.${k}`),
      ],
      ...(summary ? { custom_fields: summary.after } : {}),
    });
    return {};
  },
  {
    audit: "contact.updated",
    args: ["contactId"],
    after: (_result, input) => redirect(`/contacts/${input.contactId}`),
  },
);

export const updateContactSourceAction = memberAction(
  z.object({ contactId, source: z.string().default(""), reason: z.string().default("") }),
  async (db, input, ctx): Promise<FormState> => {
    refuseIf(
      await updateContactSource(db, {
        contactId: input.contactId,
        workspaceId: ctx.workspaceId,
        newSource: input.source,
        reason: input.reason,
      }),
    );
    ctx.audit.target("contact", input.contactId).change(null, { source: input.source.trim() });
    return {};
  },
  {
    audit: "contact.source_changed",
    args: ["contactId"],
    after: (_result, input) => redirect(`/contacts/${input.contactId}`),
  },
);

export const deleteContactAction = memberAction(
  z.object({ contactId }),
  async (db, input, ctx): Promise<FormState> => {
    refuseIf(await deleteContact(db, { ...input, workspaceId: ctx.workspaceId }));
    ctx.audit.target("contact", input.contactId);
    return {};
  },
  { audit: "contact.deleted", args: ["contactId"], after: () => redirect("/contacts?deleted=1") },
);
