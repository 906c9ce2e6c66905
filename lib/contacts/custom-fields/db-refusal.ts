import { refused, type Refused } from "@/lib/errors/app-error";

/**
 * The database's refusal of a custom field value (the trigger of the custom fields migration:
 * SQLSTATE 23514 with the key as its detail) as an `invalid` refusal beside that key; null for
 * any other error. Catching it inside a transaction leaves the transaction aborted: callers
 * return the refusal and let the adapter roll back.
 */
export function customFieldsDbRefusal(error: unknown): Refused | null {
  const e = error as { code?: string; message?: string; detail?: string };
  if (e?.code !== "23514" || !String(e.message).startsWith("custom field")) return null;
  const key = e.detail || "custom_fields";
  return refused("invalid", `${key}: the value does not fit the custom field.`, {
    field: key,
    details: { fields: { [key]: "The value does not fit the custom field." } },
  });
}
