import type { JSONValue } from "postgres";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { customFieldsDbRefusal } from "./db-refusal";
import type { CustomFieldValues, CustomFieldValuesInput } from "./types";

export interface CustomFieldsChange {
  before: CustomFieldValues;
  after: CustomFieldValues;
  /** keys whose value changed */
  changed: string[];
}

/**
 * Writes a contact's custom field values inside the caller's transaction: the keys given are
 * set (null clears one), the others kept; `replace` clears every key not given. The values
 * should have passed validateCustomFieldValues; the database checks them again and a refusal
 * comes back as `invalid` with the key as `field`. The contact must be in the workspace.
 */
export async function writeCustomFieldValues(
  db: Db,
  input: { workspaceId: string; contactId: string; values: CustomFieldValuesInput; replace?: boolean },
): Promise<Result<CustomFieldsChange>> {
  try {
    const [row] = await db<{ before: CustomFieldValues; after: CustomFieldValues }[]>`
      with old as (
        select c.id, c.custom_fields from public.contacts c
        where c.id = ${input.contactId} and c.workspace_id = ${input.workspaceId}
        for update
      )
      update public.contacts c
      set custom_fields = jsonb_strip_nulls(
        case when ${Boolean(input.replace)} then '{}'::jsonb else old.custom_fields end || ${db.json(input.values as JSONValue)})
      from old where c.id = old.id
      returning old.custom_fields as before, c.custom_fields as after`;
    if (!row) return refused("not_found", "Contact not found.");
    return { data: { ...row, changed: changedKeys(row.before, row.after) } };
  } catch (error) {
    const refusal = customFieldsDbRefusal(error);
    if (refusal) return refusal;
    throw error;
  }
}

/** The keys whose value differs between two value maps. */
export function changedKeys(before: CustomFieldValues, after: CustomFieldValues): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys]
    .filter((k) => JSON.stringify(before[k] ?? null) !== JSON.stringify(after[k] ?? null))
    .sort();
}
