import type { Db } from "@/lib/db/doors";
import { mergeContact } from "@/lib/contacts/merge-contact";
import { applyConsent } from "@/lib/consent/apply-consent";
import { decideConsent, type ConsentChange } from "@/lib/consent/consent-rules";
import { sendEmail } from "@/lib/email/send-email";
import type { AppError } from "@/lib/errors/app-error";
import { loadRsvpEvent, rsvpRefusal } from "./rsvp-availability";
import { rsvpConfirmationEmail } from "./rsvp-confirmation-email";
import { claimSeat } from "./seats";
import { issueTicket } from "../tickets/issue-ticket";
import type { RsvpInput } from "./rsvp-schema";

export type SubmitRsvpResult =
  | {
      data: {
        contactId: string;
        registrationId: string;
        alreadyRegistered: boolean;
        email: "queued" | "outbox" | "skipped" | "not_sent";
      };
    }
  | { error: AppError };

/**
 * POST /api/rsvp/{event_id} (spec 4.13), once the request passed the rate limit and honeypot:
 * - refused unless the event exists, is published, has not started and is not ticketing-linked,
 *   and (docs/decisions.md, "RSVP and capacity") while a seat is left when the event has a capacity;
 * - a new contact is created with source 'event'; an existing one keeps its names (only empty
 *   fields are filled, nothing is overwritten);
 * - with is_subscribed: consent as spec 4.13 says (is_subscribed, opt_in_timestamp,
 *   opt_in_source = the event id, opt_in_ip; unsubscribed_at cleared; every suppression but
 *   a complaint cleared) in the same update;
 * - one registration per contact and event: a repeated RSVP changes nothing and sends nothing;
 * - a new registration gets a transactional confirmation through the eligibility rules (8.3).
 */
export async function submitRsvp(
  db: Db,
  input: { eventId: string; rsvp: RsvpInput; ip: string | null; now?: Date },
): Promise<SubmitRsvpResult> {
  const availability = await loadRsvpEvent(db, input.eventId, input.now);
  if ("error" in availability) return availability;
  const event = availability.data;
  const { rsvp } = input;
  // capacity (docs/decisions.md, "RSVP and capacity"): refused before anything is written
  if ((await claimSeat(db, { eventId: event.id, email: rsvp.email })) === "full")
    return { error: rsvpRefusal("event_full") };

  let change = null as ConsentChange | null;
  const { contact } = await mergeContact(db, {
    workspaceId: event.workspace_id,
    email: rsvp.email,
    fields: { first_name: rsvp.firstName, last_name: rsvp.lastName, phone: rsvp.phone },
    source: "event",
    mode: "fill_empty",
    via: "RSVP",
    extra: (existing) => {
      if (!rsvp.isSubscribed) return {};
      const decision = decideConsent("rsvp", {
        contact: existing,
        suppressions: [],
        ip: input.ip,
        source: event.id,
      });
      change = "skip" in decision ? null : decision;
      return change?.columns ?? {};
    },
  });
  if (change) await applyConsent(db, { workspaceId: event.workspace_id, contactId: contact.id, change });

  const [created] = await db`
    insert into public.event_registrations (workspace_id, event_id, contact_id, amount_paid, status)
    values (${event.workspace_id}, ${event.id}, ${contact.id}, 0, 'registered')
    on conflict (event_id, contact_id) where external_attendee_id is null do nothing
    returning id`;
  if (!created) {
    const [existing] = await db`
      select id from public.event_registrations
      where event_id = ${event.id} and contact_id = ${contact.id} and external_attendee_id is null`;
    return {
      data: {
        contactId: contact.id,
        registrationId: existing.id,
        alreadyRegistered: true,
        email: "not_sent",
      },
    };
  }

  // the signed ticket (DESIGN section 9, "Events"), in the confirmation
  const ticket = await issueTicket(db, { workspaceId: event.workspace_id, registrationId: created.id });
  const message = rsvpConfirmationEmail(event, contact.first_name, ticket);
  const sent = await sendEmail(db, {
    workspaceId: event.workspace_id,
    contactId: contact.id,
    to: contact.email,
    kind: "transactional",
    ...message,
  });
  return {
    data: { contactId: contact.id, registrationId: created.id, alreadyRegistered: false, email: sent.status },
  };
}
