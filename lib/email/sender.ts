import type { Db } from "@/lib/db/doors";
import { emailFrom } from "./resend-client";

/**
 * Who a workspace's mail is from, as Resend takes it: `from`, and `replyTo` when the workspace set
 * one; `sendingDomainId` when `from` is on the workspace's own verified domain (its warm-up counts
 * the mail: lib/email/warm-up.ts).
 */
export interface Sender {
  from: string;
  replyTo?: string;
  sendingDomainId?: string;
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

interface SenderRow {
  name: string;
  email_reply_to: string | null;
  broadcast_reply_to: string | null;
  from_name: string | null;
  from_address: string | null;
  sending_domain_id: string | null;
}

/**
 * The sender of a workspace's mail (docs/decisions.md, "Mail leaves in the workspace's name" and
 * "Sending domains and warm-up"): a broadcast's own From when it has one on a verified domain of
 * the workspace, else the workspace's From on its verified domain, else the platform's address
 * (EMAIL_FROM); the display name is the one set beside that From, else the workspace's name. A
 * From whose domain is no longer verified here is not used (checked at every send, whoever wrote
 * the columns). Replies go to the broadcast's own reply-to address when it has one, else to the
 * workspace's when it has one. A workspace whose
 * name leaves nothing keeps EMAIL_FROM as it is.
 */
export async function senderFor(db: Db, workspaceId: string | null, broadcastId?: string): Promise<Sender> {
  if (!workspaceId) return { from: emailFrom() };
  const [row] = await db<SenderRow[]>`
    select w.name, w.email_reply_to, f.from_name, f.from_address, f.sending_domain_id,
           (select b.reply_to from public.broadcasts b
             where b.id = ${broadcastId ?? null}::uuid and b.workspace_id = w.id) as broadcast_reply_to
    from public.workspaces w
    left join lateral (
      select o.from_name, o.from_local || '@' || d.domain as from_address, d.id as sending_domain_id
      from (select b.from_name, b.from_local, b.from_domain, 1 as rank from public.broadcasts b
              where b.id = ${broadcastId ?? null}::uuid and b.workspace_id = w.id
            union all
            select w.email_from_name, w.email_from_local, w.email_from_domain, 2) o
      join public.sending_domains d
        on d.workspace_id = w.id and d.domain = o.from_domain and d.status = 'verified'
      where o.from_local is not null
      order by o.rank limit 1
    ) f on true
    where w.id = ${workspaceId}`;
  if (!row) return { from: emailFrom() };
  const replyAddress = row.broadcast_reply_to ?? row.email_reply_to;
  const replyTo = replyAddress ? { replyTo: replyAddress } : {};
  const name = displayName(row.from_name ?? row.name);
  if (row.from_address && row.sending_domain_id)
    return {
      from: name ? `"${name}" <${row.from_address}>` : row.from_address,
      ...replyTo,
      sendingDomainId: row.sending_domain_id,
    };
  const platformName = displayName(row.name);
  return { from: platformName ? `"${platformName}" <${platformAddress()}>` : emailFrom(), ...replyTo };
}
