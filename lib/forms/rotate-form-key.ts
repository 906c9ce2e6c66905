import type { Db } from "@/lib/db/doors";
import { generateFormKey, hashFormKey } from "./api-key";

/**
 * Generates a new form key, replacing any previous one (which stops working at once). Only
 * the digest is stored; the raw key is returned to be shown once.
 */
export async function rotateFormKey(
  db: Db,
  input: { workspaceId: string; formId: string },
): Promise<{ key: string } | null> {
  const key = generateFormKey();
  const rows = await db`
    update public.forms set api_key = ${hashFormKey(key)}
    where id = ${input.formId} and workspace_id = ${input.workspaceId}
    returning id`;
  return rows.length === 1 ? { key } : null;
}
