import type { CustomField, CustomFieldValue } from "./types";

const TRUE = new Set(["true", "yes", "y", "1", "on", "x"]);
const FALSE = new Set(["false", "no", "n", "0", "off"]);

/**
 * A value as text (a form submission, a CSV cell, a dashboard form) turned into the field's
 * type: numbers as written (a comma as thousands separator is dropped), yes/no words as
 * booleans, options matched without regard to case, a multi select's options separated by
 * ';', ',' or '|'. Returns null for a blank, and the text itself when it does not convert, so
 * validateCustomFieldValues refuses it with the field's message.
 */
export function parseCustomFieldText(field: CustomField, text: string): CustomFieldValue | null {
  const value = text.trim();
  if (value === "") return null;
  switch (field.field_type) {
    case "number": {
      const plain = value.replace(/,(?=\d{3}\b)/g, "");
      return /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(plain) ? Number(plain) : value;
    }
    case "boolean": {
      const word = value.toLowerCase();
      return TRUE.has(word) ? true : FALSE.has(word) ? false : value;
    }
    case "select":
      return matchOption(field, value) ?? value;
    case "multi_select": {
      const parts = value
        .split(/[;,|]/)
        .map((p) => p.trim())
        .filter(Boolean);
      return [...new Set(parts.map((p) => matchOption(field, p) ?? p))];
    }
    case "date":
      return /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value;
    default:
      return value;
  }
}

function matchOption(field: CustomField, text: string): string | undefined {
  return (
    field.options.find((o) => o === text) ?? field.options.find((o) => o.toLowerCase() === text.toLowerCase())
  );
}

/** Text values by key (a form's extra keys, a CSV row) in their fields' types; other keys are left out. */
export function parseCustomFieldTexts(
  fields: CustomField[],
  texts: Record<string, string | undefined>,
): Record<string, CustomFieldValue | null> {
  const values: Record<string, CustomFieldValue | null> = {};
  for (const field of fields) {
    const text = texts[field.key];
    if (text !== undefined) values[field.key] = parseCustomFieldText(field, text);
  }
  return values;
}
