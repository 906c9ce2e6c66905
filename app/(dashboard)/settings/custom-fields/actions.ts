"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import {
  createCustomField,
  deleteCustomField,
  updateCustomField,
} from "@/lib/contacts/custom-fields/define-custom-field";
import { unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";

const admins = { roles: ADMIN_ROLES, forbidden: "Only owners and admins can manage custom fields." } as const;
const refresh = () => revalidatePath("/settings/custom-fields");

/** The definition as the audit row shows it: names and flags, never a contact's value. */
const summary = (f: {
  key: string;
  label: string;
  field_type: string;
  options: string[];
  is_required: boolean;
  is_personal: boolean;
}) => ({
  key: f.key,
  label: f.label,
  field_type: f.field_type,
  options: f.options,
  is_required: f.is_required,
  is_personal: f.is_personal,
});

export const createCustomFieldAction = memberAction(
  z.object({
    key: z.string().default(""),
    label: z.string().default(""),
    fieldType: z.string().default(""),
    options: z.string().default(""),
    isRequired: z.string().optional(),
    isPersonal: z.string().optional(),
  }),
  async (db, input, ctx): Promise<FormState> => {
    const field = unwrap(
      await createCustomField(db, {
        workspaceId: ctx.workspaceId,
        ...input,
        fieldType: input.fieldType as never,
      }),
    );
    ctx.audit.target("custom_field", field.id).change(null, summary(field));
    return { success: `Field '${field.label}' added.`, values: {} };
  },
  { ...admins, audit: "custom_field.created", after: refresh },
);

export const updateCustomFieldAction = memberAction(
  z.object({
    fieldId: z.string().default(""),
    label: z.string().default(""),
    options: z.string().default(""),
    isRequired: z.string().optional(),
    isPersonal: z.string().optional(),
  }),
  async (db, input, ctx): Promise<FormState> => {
    const { before, after } = unwrap(await updateCustomField(db, { workspaceId: ctx.workspaceId, ...input }));
    ctx.audit.target("custom_field", after.id).change(summary(before), summary(after));
    return { success: `Field '${after.label}' saved.` };
  },
  { ...admins, audit: "custom_field.updated", after: refresh },
);

export const deleteCustomFieldAction = memberAction(
  z.object({ fieldId: z.string().default("") }),
  async (db, input, ctx): Promise<FormState> => {
    const field = unwrap(await deleteCustomField(db, { workspaceId: ctx.workspaceId, ...input }));
    ctx.audit.target("custom_field", field.id).change(summary(field), null);
    return { success: `Field '${field.label}' deleted.` };
  },
  { ...admins, audit: "custom_field.deleted", after: refresh },
);
