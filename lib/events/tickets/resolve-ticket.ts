import type { Db } from "@/lib/db/doors";
import { ticketKeyById } from "./ticket-keys";
import { ticketKeyId, verifyTicket, type TicketClaims } from "./ticket-token";

/**
 * A ticket as the server reads it: its signature verified with the key its header names, whichever
 * workspace holds that key, and the claims matching that key's workspace. null: forged, altered,
 * or not a ticket at all. Where it may be used (this workspace, this event) is the caller's check.
 */
export async function resolveTicket(db: Db, token: unknown): Promise<TicketClaims | null> {
  const kid = ticketKeyId(token);
  if (!kid) return null;
  const key = await ticketKeyById(db, kid);
  if (!key) return null;
  const claims = await verifyTicket(token as string, key);
  return claims && claims.w === key.workspaceId ? claims : null;
}

/** A ticket's registration and event, for the ticket page: only while the registration stands. */
export interface TicketView {
  event: {
    id: string;
    name: string;
    title: string;
    location: string | null;
    start_time: Date | null;
    end_time: Date | null;
    timezone: string;
  };
  registration: {
    id: string;
    first_name: string | null;
    last_name: string | null;
    checked_in_at: Date | null;
  };
}

export async function loadTicketView(db: Db, token: unknown): Promise<TicketView | null> {
  const claims = await resolveTicket(db, token);
  if (!claims) return null;
  const [row] = await db<
    (TicketView["event"] & {
      registration_id: string;
      first_name: string | null;
      last_name: string | null;
      checked_in_at: Date | null;
    })[]
  >`
    select e.id, e.name, coalesce(e.website_title, e.name) as title, e.location, e.start_time, e.end_time,
           e.timezone, r.id as registration_id, c.first_name, c.last_name, r.checked_in_at
    from public.event_registrations r
    join public.events e on e.id = r.event_id and e.workspace_id = r.workspace_id
    join public.contacts c on c.id = r.contact_id and c.workspace_id = r.workspace_id
    where r.workspace_id = ${claims.w} and r.event_id = ${claims.e} and r.id = ${claims.r}
      and r.status = 'registered'`;
  if (!row) return null;
  const { registration_id, first_name, last_name, checked_in_at, ...event } = row;
  return { event, registration: { id: registration_id, first_name, last_name, checked_in_at } };
}
