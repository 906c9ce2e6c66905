"use client";

import { useActionState, useState } from "react";
import { ConfirmAction } from "@/components/confirm-action";
import {
  Check,
  Field,
  FieldWrapper,
  FormMessage,
  SelectField,
  SubmitButton,
} from "@/components/form-controls";
import type { FormState } from "@/lib/http/form-state";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

export interface FieldRow {
  id: string;
  key: string;
  label: string;
  field_type: string;
  typeLabel: string;
  options: string[];
  is_required: boolean;
  is_personal: boolean;
}

const SELECTS = ["select", "multi_select"];

function OptionsField({ state, initial }: { state: FormState; initial?: string }) {
  return (
    <FieldWrapper label="Options" hint="One per line." error={state.errors?.options}>
      {(control) => (
        <textarea
          name="options"
          rows={4}
          defaultValue={state.values?.options ?? initial ?? ""}
          {...control}
        />
      )}
    </FieldWrapper>
  );
}

/** Settings → Custom fields: a new field (key, label, type, options for selects, flags). */
export function NewCustomFieldForm({
  action,
  types,
}: {
  action: Action;
  types: { value: string; label: string }[];
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  const [type, setType] = useState("text");
  return (
    <form
      action={formAction}
      className="stack"
      aria-describedby="new-field-message"
      key={state.success ?? "form"}
    >
      <Field
        label="Key"
        name="key"
        state={state}
        required
        maxLength={63}
        pattern="[a-z][a-z0-9_]*"
        hint="snake_case, fixed once saved: the name in the API, forms and CSV imports."
      />
      <Field label="Label" name="label" state={state} required maxLength={100} />
      <SelectField
        label="Type"
        name="fieldType"
        state={state}
        options={types}
        value={type}
        onChange={(e) => setType(e.target.value)}
        hint="Fixed once saved."
      />
      {SELECTS.includes(type) && <OptionsField state={state} />}
      <Check
        name="isRequired"
        label="Required in the contact form and when created through the API"
        defaultChecked={false}
      />
      <Check
        name="isPersonal"
        label="Personal data (kept out of the audit log's before/after)"
        defaultChecked={false}
      />
      <SubmitButton pendingLabel="Adding…">Add field</SubmitButton>
      <FormMessage state={state} id="new-field-message" />
    </form>
  );
}

function EditFieldForm({ field, action }: { field: FieldRow; action: Action }) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  const messageId = `field-${field.id}-message`;
  return (
    <form action={formAction} className="stack" aria-describedby={messageId}>
      <input type="hidden" name="fieldId" value={field.id} />
      <Field
        label={`Label of ${field.key}`}
        name="label"
        state={state}
        defaultValue={field.label}
        required
        maxLength={100}
      />
      {SELECTS.includes(field.field_type) && (
        <OptionsField state={state} initial={field.options.join("\n")} />
      )}
      <Check name="isRequired" label="Required" defaultChecked={field.is_required} />
      <Check name="isPersonal" label="Personal data" defaultChecked={field.is_personal} />
      <SubmitButton pendingLabel="Saving…">Save</SubmitButton>
      <FormMessage state={state} id={messageId} />
    </form>
  );
}

/** The workspace's fields, each with its edit form and a confirmed delete (one client component for the list). */
export function CustomFieldList({
  fields,
  updateAction,
  deleteAction,
}: {
  fields: FieldRow[];
  updateAction: Action;
  deleteAction: Action;
}) {
  return (
    <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
      {fields.map((f) => (
        <li key={f.id} className="card stack">
          <h3 style={{ margin: 0 }}>
            {f.label} <code>{f.key}</code> <span className="muted">{f.typeLabel}</span>
          </h3>
          <EditFieldForm field={f} action={updateAction} />
          <div className="row">
            <ConfirmAction
              action={deleteAction}
              fields={{ fieldId: f.id }}
              label="Delete"
              accessibleName={`Delete the field ${f.label}`}
              title={`Delete the field ${f.label}?`}
              body="Every contact's value for this field is removed. This cannot be undone."
              confirmLabel="Delete field"
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
