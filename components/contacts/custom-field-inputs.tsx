"use client";

import { Field, FieldWrapper, SelectField } from "@/components/form-controls";
import type { FormState } from "@/lib/http/form-state";

/** A custom field as the contact form shows it, with the contact's value. */
export interface CustomFieldInput {
  key: string;
  label: string;
  field_type: string;
  options: string[];
  is_required: boolean;
  value: string | number | boolean | string[] | null;
}

const asText = (v: CustomFieldInput["value"]) => (v === null || Array.isArray(v) ? "" : String(v));

/** The workspace's custom fields in the contact form, one control per type (`cf.<key>`). */
export function CustomFieldInputs({ fields, state }: { fields: CustomFieldInput[]; state: FormState }) {
  if (fields.length === 0) return null;
  return (
    <fieldset className="stack">
      <legend>More fields</legend>
      {fields.map((f) => {
        const name = `cf.${f.key}`;
        const label = f.is_required ? `${f.label} (required)` : f.label;
        const kept = state.values?.[name] ?? asText(f.value);
        switch (f.field_type) {
          case "boolean":
            return (
              <label key={f.key} className="check">
                <input type="checkbox" name={name} defaultChecked={f.value === true} />
                {label}
              </label>
            );
          case "select":
            return (
              <SelectField
                key={f.key}
                label={label}
                name={name}
                state={{ ...state, values: { ...state.values, [name]: kept } }}
                options={[{ value: "", label: "—" }, ...f.options]}
              />
            );
          case "multi_select": {
            const chosen = Array.isArray(f.value) ? f.value : [];
            return (
              <FieldWrapper key={f.key} label={label} error={state.errors?.[name]} labelAsText>
                {(control) => (
                  <div role="group" className="row" {...control}>
                    {f.options.map((o) => (
                      <label key={o} className="check">
                        <input
                          type="checkbox"
                          name={`${name}[]`}
                          value={o}
                          defaultChecked={chosen.includes(o)}
                        />
                        {o}
                      </label>
                    ))}
                  </div>
                )}
              </FieldWrapper>
            );
          }
          default:
            return (
              <Field
                key={f.key}
                label={label}
                name={name}
                type={f.field_type === "number" ? "number" : f.field_type === "date" ? "date" : "text"}
                step={f.field_type === "number" ? "any" : undefined}
                state={{ ...state, values: { ...state.values, [name]: kept } }}
                maxLength={f.field_type === "text" ? 10000 : undefined}
              />
            );
        }
      })}
    </fieldset>
  );
}
