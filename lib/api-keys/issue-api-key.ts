import type { FormState } from "@/lib/http/form-state";
import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { hashApiKey, newApiKey } from "./hash-api-key";

/** The issue form's answer: the raw key, this once. */
export interface IssueKeyState extends FormState {
  key?: string;
}

export const issueApiKeySchema = z.object({
  name: z.string().trim().min(1, "Name the key (where it is used).").max(100, "Use at most 100 characters."),
});

/**
 * Issues a public events API key (docs/decisions.md, "The public events API"): only its digest is stored; the
 * raw key is returned once, to be shown once. Owners and admins only (RLS).
 */
export async function issueApiKey(
  db: Db,
  input: { workspaceId: string; name: string },
): Promise<{ data: { id: string; name: string; key: string } }> {
  const key = newApiKey();
  const [row] = await db`
    insert into public.api_keys (workspace_id, name, key_hash)
    values (${input.workspaceId}, ${input.name}, ${hashApiKey(key)}) returning id, name`;
  return { data: { id: row.id, name: row.name, key } };
}
