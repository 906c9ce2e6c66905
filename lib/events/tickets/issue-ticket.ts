import { appUrl } from "@/lib/config";
import type { Db } from "@/lib/db/doors";
import { ticketSigningKey } from "./ticket-keys";
import { signTicket } from "./ticket-token";

/**
 * A confirmed registration's ticket (DESIGN section 9, "Events"): the token signed with the
 * workspace's key, naming the workspace, event, registration and its ticket type. Read as JSON so
 * that a schema without `event_registrations.ticket_type_id` signs `t: null`. As the service.
 */
export async function issueTicket(
  db: Db,
  input: { workspaceId: string; registrationId: string },
): Promise<string | null> {
  const [row] = await db<{ event_id: string; ticket_type_id: string | null }[]>`
    select r.event_id, to_jsonb(r) ->> 'ticket_type_id' as ticket_type_id
    from public.event_registrations r
    where r.workspace_id = ${input.workspaceId} and r.id = ${input.registrationId} and r.status = 'registered'`;
  if (!row) return null;
  const key = await ticketSigningKey(db, input.workspaceId);
  return signTicket(key, {
    w: input.workspaceId,
    e: row.event_id,
    r: input.registrationId,
    t: row.ticket_type_id,
  });
}

/** The ticket page: `{base_url}/tickets/{token}` (DESIGN section 9). */
export const ticketUrl = (token: string) => `${appUrl()}/tickets/${token}`;

/** The ticket's QR code as a PNG the email shows (app/tickets/[token]/qr.png). */
export const ticketQrUrl = (token: string) => `${ticketUrl(token)}/qr.png`;
