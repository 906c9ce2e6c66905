import { FilterSelect } from "@/components/filter-select";
import type { CustomFieldListFilter } from "@/lib/contacts/custom-fields/list-filter";
import type { CustomField } from "@/lib/contacts/custom-fields/types";

/** A yes/no field filters by these two values; the other choice fields by their own options. */
const YES_NO = [
  { value: "yes", label: "Yes" },
  { value: "no", label: "No" },
];

/**
 * The contacts list's custom field filters and chosen columns, inside its GET form (the URL's
 * `cf.<key>` parameters and `columns`): selects and yes/no by value, numbers and dates by range,
 * text by contained words.
 */
export function CustomFieldFilters({
  fields,
  filters,
  columns,
}: {
  fields: CustomField[];
  filters: CustomFieldListFilter[];
  columns: string[];
}) {
  if (fields.length === 0) return null;
  const byKey = new Map(filters.map((f) => [f.key, f]));
  const open = filters.length > 0 || columns.length > 0;
  return (
    <details open={open}>
      <summary>Custom fields: filters and columns</summary>
      <div className="row" style={{ alignItems: "flex-end" }}>
        {fields.map((f) => {
          const current = byKey.get(f.key);
          const name = `cf.${f.key}`;
          switch (f.field_type) {
            case "select":
            case "multi_select":
            case "boolean":
              return (
                <FilterSelect
                  key={f.key}
                  label={f.label}
                  name={name}
                  defaultValue={current?.values?.[0] ?? ""}
                  options={[
                    { value: "", label: "Any" },
                    ...(f.field_type === "boolean" ? YES_NO : f.options),
                  ]}
                />
              );
            case "number":
            case "date": {
              const type = f.field_type === "number" ? "number" : "date";
              return (
                <fieldset key={f.key} className="row" style={{ border: "none", padding: 0, margin: 0 }}>
                  <legend className="hint">{f.label}</legend>
                  <label>
                    From
                    <input type={type} step="any" name={`${name}.min`} defaultValue={current?.min ?? ""} />
                  </label>
                  <label>
                    To
                    <input type={type} step="any" name={`${name}.max`} defaultValue={current?.max ?? ""} />
                  </label>
                </fieldset>
              );
            }
            default:
              return (
                <label key={f.key}>
                  {f.label} contains
                  <input
                    type="search"
                    name={`${name}.contains`}
                    maxLength={200}
                    defaultValue={current?.op === "contains" ? (current.values?.[0] ?? "") : ""}
                  />
                </label>
              );
          }
        })}
      </div>
      <fieldset className="row" style={{ border: "none", padding: 0, margin: 0 }}>
        <legend className="hint">Show as columns</legend>
        {fields.map((f) => (
          <label key={f.key} className="check">
            <input type="checkbox" name="columns" value={f.key} defaultChecked={columns.includes(f.key)} />
            {f.label}
          </label>
        ))}
      </fieldset>
    </details>
  );
}
