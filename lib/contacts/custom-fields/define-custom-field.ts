import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { refused, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { CUSTOM_FIELD_TYPES, RESERVED_CUSTOM_FIELD_KEYS, type CustomField } from "./types";

export const CUSTOM_FIELD_NOT_FOUND = "Custom field not found.";
export const CUSTOM_FIELD_KEY_TAKEN = "A field with this key already exists.";
const OPTION_IN_USE = "An option you removed is still used by contacts: clear it from them first.";

const checkbox = z.preprocess((v) => v === true || v === "on" || v === "true", z.boolean());

/** Options as a settings form sends them: one per line (or a list), trimmed, blanks dropped. */
const optionsSchema = z.preprocess(
  (v) =>
    (Array.isArray(v) ? v : typeof v === "string" ? v.split(/\r?\n/) : [])
      .map((o) => String(o).trim())
      .filter(Boolean),
  z
    .array(z.string().max(100, "An option can be at most 100 characters."))
    .max(200, "At most 200 options.")
    .refine((list) => new Set(list).size === list.length, "Each option may be listed once."),
);

const labelSchema = z
  .string({ error: "Give the field a label." })
  .trim()
  .min(1, "Give the field a label.")
  .max(100, "A label can be at most 100 characters.");

/** A new field's definition, as the settings form or a caller sends it. */
export const customFieldDefinitionSchema = z
  .object({
    key: z
      .string({ error: "Give the field a key." })
      .trim()
      .regex(
        /^[a-z][a-z0-9_]{0,62}$/,
        "The key is snake_case: a lowercase letter, then letters, digits or _.",
      )
      .refine(
        (k) => !RESERVED_CUSTOM_FIELD_KEYS.includes(k),
        "This key names a contact column; choose another.",
      ),
    label: labelSchema,
    fieldType: z.enum(CUSTOM_FIELD_TYPES, { error: "Choose the field's type." }),
    options: optionsSchema,
    isRequired: checkbox,
    isPersonal: checkbox,
  })
  .superRefine((v, ctx) => {
    const select = v.fieldType === "select" || v.fieldType === "multi_select";
    if (select && v.options.length === 0)
      ctx.addIssue({ code: "custom", path: ["options"], message: "A select needs at least one option." });
  });
type Flags = { isRequired?: unknown; isPersonal?: unknown };
export type CustomFieldDefinition = Omit<z.input<typeof customFieldDefinitionSchema>, keyof Flags> & Flags;

/** What may change once a field exists: never its key or type. */
export const customFieldChangeSchema = z.object({
  label: labelSchema,
  options: optionsSchema,
  isRequired: checkbox,
  isPersonal: checkbox,
});
export type CustomFieldChange = Omit<z.input<typeof customFieldChangeSchema>, keyof Flags> & Flags;

const COLUMNS = `id, workspace_id, key, label, field_type, options, is_required, is_personal, position,
  created_at, updated_at`;

const firstIssue = (error: z.ZodError) => {
  const issue = error.issues[0];
  return refused("invalid", issue?.message ?? "The field is not valid.", {
    field: String(issue?.path[0] ?? ""),
  });
};

/** Defines a field in the workspace (owners and admins: RLS and the caller's role check). */
export async function createCustomField(
  db: Db,
  input: { workspaceId: string } & CustomFieldDefinition,
): Promise<Result<CustomField>> {
  const parsed = customFieldDefinitionSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  const d = parsed.data;
  const options = d.fieldType === "select" || d.fieldType === "multi_select" ? d.options : [];
  const [field] = await db<CustomField[]>`
    insert into public.custom_fields (workspace_id, key, label, field_type, options, is_required, is_personal, position)
    values (${input.workspaceId}, ${d.key}, ${d.label}, ${d.fieldType}, ${options}::text[], ${d.isRequired},
            ${d.isPersonal},
            (select coalesce(max(position), 0) + 1 from public.custom_fields where workspace_id = ${input.workspaceId}))
    on conflict (workspace_id, key) do nothing
    returning ${db.unsafe(COLUMNS)}`;
  return field ? { data: field } : refused("conflict", CUSTOM_FIELD_KEY_TAKEN, { field: "key" });
}

/**
 * Changes a field's label, options, required and personal flags. Removing an option that a
 * contact still holds is refused by the database (its values must stay valid).
 */
export async function updateCustomField(
  db: Db,
  input: { workspaceId: string; fieldId: string } & CustomFieldChange,
): Promise<Result<{ before: CustomField; after: CustomField }>> {
  const parsed = customFieldChangeSchema.safeParse(input);
  if (!parsed.success) return firstIssue(parsed.error);
  if (!isUuid(input.fieldId)) return refused("not_found", CUSTOM_FIELD_NOT_FOUND);
  const [before] = await db<CustomField[]>`
    select ${db.unsafe(COLUMNS)} from public.custom_fields
    where id = ${input.fieldId} and workspace_id = ${input.workspaceId} for update`;
  if (!before) return refused("not_found", CUSTOM_FIELD_NOT_FOUND);
  const d = parsed.data;
  const select = before.field_type === "select" || before.field_type === "multi_select";
  if (select && d.options.length === 0)
    return refused("invalid", "A select needs at least one option.", { field: "options" });
  const options = select ? d.options : [];
  const removed = before.options.filter((o) => !options.includes(o));
  if (removed.length > 0) {
    const [used] = await db<{ used: boolean }[]>`
      select exists (
        select 1 from public.contacts c, unnest(${removed}::text[]) o
        where c.workspace_id = ${input.workspaceId} and c.custom_fields <> '{}'::jsonb
          and c.custom_fields @> case when ${before.field_type} = 'multi_select'
                                      then jsonb_build_object(${before.key}::text, jsonb_build_array(o))
                                      else jsonb_build_object(${before.key}::text, o) end) as used`;
    if (used.used) return refused("conflict", OPTION_IN_USE, { field: "options" });
  }
  const [after] = await db<CustomField[]>`
    update public.custom_fields
    set label = ${d.label}, options = ${options}::text[], is_required = ${d.isRequired}, is_personal = ${d.isPersonal}
    where id = ${before.id}
    returning ${db.unsafe(COLUMNS)}`;
  return { data: { before, after } };
}

/** Deletes a field; its values go with it (the migration's trigger removes the key from contacts). */
export async function deleteCustomField(
  db: Db,
  input: { workspaceId: string; fieldId: string },
): Promise<Result<CustomField>> {
  if (!isUuid(input.fieldId)) return refused("not_found", CUSTOM_FIELD_NOT_FOUND);
  const [field] = await db<CustomField[]>`
    delete from public.custom_fields where id = ${input.fieldId} and workspace_id = ${input.workspaceId}
    returning ${db.unsafe(COLUMNS)}`;
  return field ? { data: field } : refused("not_found", CUSTOM_FIELD_NOT_FOUND);
}
