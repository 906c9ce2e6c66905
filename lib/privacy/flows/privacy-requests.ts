import { ADMIN_ROLES, type MemberContext } from "@/lib/auth/context";
import { withService, withUser } from "@/lib/db/doors";
import { eraseContact } from "../erase-contact";
import { exportContactData, type ContactExport } from "../export-contact-data";
import { recordPrivacyExport } from "../record-privacy-export";

const ADMINS_ONLY = "Only owners and admins can answer privacy requests.";

/**
 * Article 15 for the member's current workspace: read as the member (RLS applies), then
 * logged by the system. Owners and admins only.
 */
export async function exportContactFlow(
  ctx: MemberContext,
  contactId: string,
): Promise<{ data: ContactExport } | { error: string; status: number }> {
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) return { error: ADMINS_ONLY, status: 403 };
  const workspaceId = ctx.workspace.workspaceId;
  const result = await withUser(ctx.claims, (db) => exportContactData(db, { workspaceId, contactId }));
  if ("error" in result) return { error: result.error, status: 404 };
  await withService((db) => recordPrivacyExport(db, { workspaceId, contactId, actorUserId: ctx.userId }));
  return result;
}

/**
 * Article 17 for the member's current workspace: owners and admins only; the erasure runs
 * as the system because it anonymises rows members cannot write (sent emails, deliveries).
 * The workspace comes from the membership, never from the client.
 */
export async function eraseContactFlow(
  ctx: MemberContext,
  input: { contactId: string; confirmation: string },
): Promise<{ data: { erasedAt: Date } } | { error: string }> {
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) return { error: ADMINS_ONLY };
  return withService((db) =>
    eraseContact(db, {
      workspaceId: ctx.workspace.workspaceId,
      contactId: input.contactId,
      confirmation: input.confirmation,
      actorUserId: ctx.userId,
    }),
  );
}
