import type { Db } from "@/lib/db/doors";
import { verifyLink } from "@/lib/crypto/signed-link";
import { isUuid } from "@/lib/ids/uuid";
import type { ResubscribeError } from "./resubscribe-contact";

export interface SubscribeTarget {
  maskedEmail: string;
  workspaceName: string;
  subscribed: boolean;
  /** set when the re-subscribe would be refused (spec 4.6 step 1) */
  blocked: Exclude<ResubscribeError, "not_found"> | null;
}

/** j***@example.com: enough for the person to recognise their address, little for anyone else. */
export function maskEmail(email: string): string {
  const [local, domain] = email.split("@");
  return `${local.slice(0, 1)}***@${domain ?? ""}`;
}

/**
 * What the /subscribe/{contact_id} page shows before asking; null for an unknown contact, and for
 * a manually blocked one without the link's signature (resubscribeContact refuses it the same way).
 */
export async function getSubscribeTarget(
  db: Db,
  contactId: string,
  signature?: unknown,
): Promise<SubscribeTarget | null> {
  if (!isUuid(contactId)) return null;
  const [row] = await db`
    select c.email, c.workspace_id, w.name as workspace_name, c.is_subscribed and c.unsubscribed_at is null as subscribed,
           exists (select 1 from public.contact_suppressions s where s.contact_id = c.id and s.reason = 'manual') as manual,
           exists (select 1 from public.contact_suppressions s where s.contact_id = c.id and s.reason = 'complaint') as complaint,
           exists (select 1 from public.contact_suppressions s where s.contact_id = c.id and s.reason = 'bounce') as bounce,
           exists (select 1 from public.contact_suppressions s where s.contact_id = c.id and s.reason in ('unsubscribe', 'manual')) as soft
    from public.contacts c join public.workspaces w on w.id = c.workspace_id
    where c.id = ${contactId}`;
  if (!row) return null;
  if (row.manual && !verifyLink("subscribe", { workspaceId: row.workspace_id, contactId }, signature))
    return null;
  return {
    maskedEmail: maskEmail(row.email),
    workspaceName: row.workspace_name,
    subscribed: row.subscribed && !row.soft,
    blocked: row.complaint ? "complaint" : row.bounce ? "bounce" : null,
  };
}
