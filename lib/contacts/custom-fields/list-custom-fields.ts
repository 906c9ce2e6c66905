import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import type { CustomField } from "./types";

const COLUMNS = `id, workspace_id, key, label, field_type, options, is_required, is_personal, position,
  created_at, updated_at`;

/** The workspace's custom field definitions, in their display order. */
export async function listCustomFields(db: Db, workspaceId: string): Promise<CustomField[]> {
  return db<CustomField[]>`
    select ${db.unsafe(COLUMNS)} from public.custom_fields
    where workspace_id = ${workspaceId}
    order by position, key`;
}

/**
 * The definitions of the workspace that owns form `formId`, in their display order; none for an
 * unknown form. It needs no earlier answer, so it can leave in the same socket write as the form's own
 * lookup (the public form submission, docs/performance.md "The public paths").
 */
export async function listFormCustomFields(db: Db, formId: string): Promise<CustomField[]> {
  return db<CustomField[]>`
    select ${db.unsafe(COLUMNS)} from public.custom_fields
    where workspace_id = (select f.workspace_id from public.forms f where f.id = ${formId})
    order by position, key`;
}

/** One definition of the workspace by id; null when the id is not the workspace's. */
export async function getCustomField(db: Db, workspaceId: string, id: string): Promise<CustomField | null> {
  if (!isUuid(id)) return null;
  const [field] = await db<CustomField[]>`
    select ${db.unsafe(COLUMNS)} from public.custom_fields
    where workspace_id = ${workspaceId} and id = ${id}`;
  return field ?? null;
}
