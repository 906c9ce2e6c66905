import type { Db } from "@/lib/db/doors";
import { getConsentLedger, type LedgerEntry } from "./consent-ledger";
import { emailStatus, type EmailStatus } from "./email-status";
import { isUuid } from "@/lib/ids/uuid";
import { listSuppressions, type SuppressionRow } from "./suppressions";

export interface ContactConsent {
  contact: {
    id: string;
    email: string;
    name: string | null;
    is_subscribed: boolean;
    unsubscribed_at: Date | null;
    opt_in_timestamp: Date | null;
    opt_in_source: string | null;
    opt_in_ip: string | null;
  };
  status: EmailStatus;
  subscribed: boolean;
  suppressions: SuppressionRow[];
  ledger: LedgerEntry[];
}

/** Everything the consent components of a contact show; null when the contact is not in the workspace. */
export async function getContactConsent(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<ContactConsent | null> {
  if (!isUuid(input.contactId)) return null;
  const [contact] = await db<ContactConsent["contact"][]>`
    select id, email, nullif(btrim(concat_ws(' ', first_name, last_name)), '') as name, is_subscribed,
           unsubscribed_at, opt_in_timestamp, opt_in_source, host(opt_in_ip) as opt_in_ip
    from public.contacts where id = ${input.contactId} and workspace_id = ${input.workspaceId}`;
  if (!contact) return null;
  const suppressions = await listSuppressions(db, input);
  const ledger = await getConsentLedger(db, input);
  return {
    contact,
    status: emailStatus(contact, suppressions),
    subscribed: contact.is_subscribed && !contact.unsubscribed_at,
    suppressions,
    ledger,
  };
}
