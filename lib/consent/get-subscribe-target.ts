import type { Db } from "@/lib/db/doors";
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

/** What the /subscribe/{contact_id} page shows before asking; null for an unknown contact. */
export async function getSubscribeTarget(db: Db, contactId: string): Promise<SubscribeTarget | null> {
  if (!isUuid(contactId)) return null;
  const [row] = await db`
    select c.email, w.name as workspace_name, c.is_subscribed and c.unsubscribed_at is null as subscribed,
           exists (select 1 from public.contact_suppressions s where s.contact_id = c.id and s.reason = 'complaint') as complaint,
           exists (select 1 from public.contact_suppressions s where s.contact_id = c.id and s.reason = 'bounce') as bounce,
           exists (select 1 from public.contact_suppressions s where s.contact_id = c.id and s.reason in ('unsubscribe', 'manual')) as soft
    from public.contacts c join public.workspaces w on w.id = c.workspace_id
    where c.id = ${contactId}`;
  if (!row) return null;
  return {
    maskedEmail: maskEmail(row.email),
    workspaceName: row.workspace_name,
    subscribed: row.subscribed && !row.soft,
    blocked: row.complaint ? "complaint" : row.bounce ? "bounce" : null,
  };
}
