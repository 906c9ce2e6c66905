import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import type { SuppressionReason } from "./email-status";

export interface ConsentState {
  id: string;
  workspace_id: string;
  email: string;
  workspace_name: string;
  is_subscribed: boolean;
  unsubscribed_at: Date | null;
  suppressions: SuppressionReason[];
}

/**
 * A contact's subscription columns and suppression reasons, the row locked for the change
 * that follows (two flows on one contact run one after the other). `workspaceId` limits the
 * lookup to one tenant (dashboard); the public recipient pages know only the contact id.
 */
export async function loadConsentState(
  db: Db,
  input: { contactId: string; workspaceId?: string },
): Promise<ConsentState | null> {
  if (!isUuid(input.contactId)) return null;
  const [row] = await db<ConsentState[]>`
    select c.id, c.workspace_id, c.email, w.name as workspace_name, c.is_subscribed, c.unsubscribed_at,
           coalesce((select array_agg(s.reason order by s.reason) from public.contact_suppressions s
                     where s.contact_id = c.id), '{}') as suppressions
    from public.contacts c
    join public.workspaces w on w.id = c.workspace_id
    where c.id = ${input.contactId}
      ${input.workspaceId ? db`and c.workspace_id = ${input.workspaceId}` : db``}
    for update of c`;
  return row ?? null;
}
