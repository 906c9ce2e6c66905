import type { MemberContext } from "@/lib/auth/context";
import { withService } from "@/lib/db/doors";
import { recordPrivacyExport } from "../record-privacy-export";

/** Privacy requests (docs/decisions.md, "Privacy requests") are answered by owners and admins only. */
export const ADMINS_ONLY = "Only owners and admins can answer privacy requests.";

/**
 * The privacy log entry of an article 15 export, written by the system (members may not write
 * the log) after the member's read of the contact has committed.
 */
export async function logPrivacyExport(ctx: MemberContext, contactId: string): Promise<void> {
  await withService((db) =>
    recordPrivacyExport(db, { workspaceId: ctx.workspace.workspaceId, contactId, actorUserId: ctx.userId }),
  );
}
