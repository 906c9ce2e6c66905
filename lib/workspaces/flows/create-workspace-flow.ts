import { recordFlowAudit } from "@/lib/audit/record-audit";
import { withUser, type Claims } from "@/lib/db/doors";
import { createWorkspace } from "../create-workspace";
import type { Result } from "../schemas";

/**
 * A signed-in user, who may be in no workspace yet (so no member action can carry it), creates
 * a workspace and becomes its owner; the first row of its audit log says so, in the same
 * transaction.
 */
export async function createWorkspaceFlow(
  claims: Claims,
  input: { name: string; ip: string | null },
): Promise<Result<{ workspaceId: string }>> {
  return withUser(claims, async (db) => {
    const result = await createWorkspace(db, { name: input.name });
    if ("error" in result) return result;
    const { workspaceId } = result.data;
    await recordFlowAudit(db, claims, "workspace.created", {
      workspaceId,
      target: ["workspace", workspaceId],
      after: { name: input.name.trim() },
      ip: input.ip,
    });
    return result;
  });
}
