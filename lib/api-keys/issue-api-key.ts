import type { FormState } from "@/lib/http/form-state";
import { z } from "zod";
import { asService, type Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { hashApiKey, newApiKey } from "./hash-api-key";

/** The issue form's answer: the raw key, this once. */
export interface IssueKeyState extends FormState {
  key?: string;
}

export const issueApiKeySchema = z.object({
  name: z.string().trim().min(1, "Name the key (where it is used).").max(100, "Use at most 100 characters."),
});

/**
 * Issues a public events API key: only its digest is stored; the raw key is returned once, to
 * be shown once. Owners and admins only: checked as the caller, then the row is written through
 * the service door (docs/decisions.md, "The database is the boundary": no member writes a digest).
 */
export async function issueApiKey(
  db: Db,
  input: { workspaceId: string; name: string },
): Promise<{ data: { id: string; name: string; key: string } }> {
  if (!(await isAdminOf(db, input.workspaceId))) throw new AppError("forbidden", NOT_ADMIN);
  const key = newApiKey();
  const [row] = await asService(
    db,
    () => db`
      insert into public.api_keys (workspace_id, name, key_hash)
      values (${input.workspaceId}, ${input.name}, ${hashApiKey(key)}) returning id, name`,
  );
  return { data: { id: row.id, name: row.name, key } };
}

export const NOT_ADMIN = "Only owners and admins can manage API keys.";

/** Whether the caller (as the transaction's identity) is an owner or admin of the workspace. */
export async function isAdminOf(db: Db, workspaceId: string): Promise<boolean> {
  const [{ admin }] =
    await db`select public.has_workspace_role(${workspaceId}, array['owner', 'admin']) as admin`;
  return admin === true;
}
