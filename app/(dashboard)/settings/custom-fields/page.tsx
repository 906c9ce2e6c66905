import type { Metadata } from "next";
import { CustomFieldList, NewCustomFieldForm } from "@/components/contacts/custom-field-settings";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { listCustomFields } from "@/lib/contacts/custom-fields/list-custom-fields";
import { CUSTOM_FIELD_TYPES, CUSTOM_FIELD_TYPE_LABELS } from "@/lib/contacts/custom-fields/types";
import { withReadUser } from "@/lib/db/doors";
import { createCustomFieldAction, deleteCustomFieldAction, updateCustomFieldAction } from "./actions";

export const metadata: Metadata = { title: "Custom fields" };

/** Settings → Custom fields (docs/decisions.md, "Custom fields"): owners and admins define the workspace's fields. */
export default async function CustomFieldsPage() {
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role))
    return (
      <>
        <h1>Custom fields</h1>
        <div className="card empty">Only owners and admins can manage custom fields.</div>
      </>
    );
  const fields = await withReadUser(ctx.claims, (db) => listCustomFields(db, ctx.workspace.workspaceId));
  return (
    <>
      <h1>Custom fields</h1>
      <p>
        Fields of your own on every contact. They appear in the contact form, the contact page, the contacts
        list and its filters, CSV imports (a column headed with the field&apos;s key), form submissions (a
        body key equal to the key) and the REST API (<code>custom_fields</code>).
      </p>
      <div className="card">
        <h2>New field</h2>
        <NewCustomFieldForm
          action={createCustomFieldAction}
          types={CUSTOM_FIELD_TYPES.map((t) => ({ value: t, label: CUSTOM_FIELD_TYPE_LABELS[t] }))}
        />
      </div>
      <h2>{fields.length === 1 ? "1 field" : `${fields.length} fields`}</h2>
      {fields.length === 0 ? (
        <div className="card empty">No custom fields yet.</div>
      ) : (
        <CustomFieldList
          fields={fields.map((f) => ({
            id: f.id,
            key: f.key,
            label: f.label,
            field_type: f.field_type,
            typeLabel: CUSTOM_FIELD_TYPE_LABELS[f.field_type],
            options: f.options,
            is_required: f.is_required,
            is_personal: f.is_personal,
          }))}
          updateAction={updateCustomFieldAction}
          deleteAction={deleteCustomFieldAction}
        />
      )}
    </>
  );
}
