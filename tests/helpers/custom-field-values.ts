import type { Sql } from "@/lib/db/client";

/**
 * A contact's rows of contact_field_values (docs/decisions.md, "Custom fields") as sorted
 * `key=value` texts, read as superuser: what the list and segment filters see.
 */
export async function typedValues(sql: Sql, contactId: string): Promise<string[]> {
  const rows = await sql<{ v: string }[]>`
    select f.key || '=' || coalesce(v.value_text, v.value_num::text, v.value_date::text, v.value_bool::text) as v
    from contact_field_values v join custom_fields f on f.id = v.field_id
    where v.contact_id = ${contactId}`;
  return rows.map((r) => r.v).sort();
}

/**
 * The same texts computed from the contact's custom_fields object in JavaScript (an oracle
 * independent of the trigger's SQL): one per value, one per option of a multi select.
 */
export async function expectedValues(sql: Sql, contactId: string): Promise<string[]> {
  const [c] = await sql<{ custom_fields: Record<string, unknown> }[]>`
    select custom_fields from contacts where id = ${contactId}`;
  if (!c) return [];
  return Object.entries(c.custom_fields)
    .flatMap(([key, value]) => (Array.isArray(value) ? value : [value]).map((v) => `${key}=${String(v)}`))
    .sort();
}
