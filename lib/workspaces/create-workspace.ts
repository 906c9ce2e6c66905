import type { Db } from "@/lib/db/doors";
import { createWorkspaceSchema, invalid, type Result } from "./schemas";

/**
 * Spec 5.4 roles (beyond the spec): a signed-in user creates another workspace and becomes its owner
 * (public.create_workspace does both for auth.uid(), which RLS alone would not allow).
 */
export async function createWorkspace(
  db: Db,
  input: { name: string },
): Promise<Result<{ workspaceId: string }>> {
  const parsed = createWorkspaceSchema.safeParse(input);
  if (!parsed.success) return invalid(parsed.error);
  const [{ id }] = await db`select public.create_workspace(${parsed.data.name}) as id`;
  return { data: { workspaceId: id } };
}
