import type { Db } from "@/lib/db/doors";
import { emailFrom } from "./resend-client";

/** Who a workspace's mail is from, as Resend takes it: `from`, and `replyTo` when the workspace set one. */
export interface Sender {
  from: string;
  replyTo?: string;
}

/** The address part of EMAIL_FROM (`Name <address>` or a bare address). */
function platformAddress(): string {
  const from = emailFrom();
  return /<([^<>]+)>\s*$/.exec(from)?.[1]?.trim() ?? from.trim();
}

/**
 * A display name safe in a From header: no quotes, backslashes, angle brackets or line breaks
 * (a name cannot forge another address or header), spaces collapsed, at most 70 characters.
 */
export function displayName(name: string): string {
  return name
    .replace(/[\r\n"\\<>]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 70)
    .trim();
}

/**
 * The sender of a workspace's mail (docs/decisions.md, "Mail leaves in the workspace's name"): the
 * platform's address (EMAIL_FROM) with the workspace's name as its display name, and the
 * workspace's reply-to address when it has one. A workspace whose name leaves nothing keeps
 * EMAIL_FROM as it is.
 */
export async function senderFor(db: Db, workspaceId: string | null): Promise<Sender> {
  if (!workspaceId) return { from: emailFrom() };
  const [row] = await db<{ name: string; email_reply_to: string | null }[]>`
    select name, email_reply_to from public.workspaces where id = ${workspaceId}`;
  if (!row) return { from: emailFrom() };
  const name = displayName(row.name);
  return {
    from: name ? `"${name}" <${platformAddress()}>` : emailFrom(),
    ...(row.email_reply_to ? { replyTo: row.email_reply_to } : {}),
  };
}
