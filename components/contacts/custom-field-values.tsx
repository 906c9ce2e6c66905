import { customFieldText } from "@/lib/contacts/custom-fields/diff-custom-fields";
import type { CustomField, CustomFieldValues } from "@/lib/contacts/custom-fields/types";
import type { CustomFieldInput } from "./custom-field-inputs";

/** The contact form's custom field controls: each definition with the contact's value. */
export function customFieldInputs(fields: CustomField[], values: CustomFieldValues): CustomFieldInput[] {
  return fields.map((f) => ({
    key: f.key,
    label: f.label,
    field_type: f.field_type,
    options: f.options,
    is_required: f.is_required,
    value: values[f.key] ?? null,
  }));
}

/** The contact page's custom fields: each field's label and value as text (a date as written). */
export function CustomFieldValuesCard({
  fields,
  values,
}: {
  fields: CustomField[];
  values: CustomFieldValues;
}) {
  if (fields.length === 0) return null;
  return (
    <section className="card" aria-labelledby="custom-fields-heading">
      <h2 id="custom-fields-heading" style={{ marginTop: 0 }}>
        More fields
      </h2>
      <dl>
        {fields.map((f) => (
          <div key={f.key}>
            <dt className="hint">{f.label}</dt>
            <dd style={{ margin: "0 0 0.5rem" }}>{customFieldText(values[f.key]) || "—"}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
