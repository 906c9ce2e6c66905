import type { Db } from "@/lib/db/doors";
import { mergeContact } from "@/lib/contacts/merge-contact";
import { applyConsent } from "@/lib/consent/apply-consent";
import { decideConsent, type ConsentChange } from "@/lib/consent/consent-rules";
import { sendEmail } from "@/lib/email/send-email";
import { AppError } from "@/lib/errors/app-error";
import { loadRsvpEvent, rsvpRefusal } from "./rsvp-availability";
import { rsvpConfirmationEmail } from "./rsvp-confirmation-email";
import { claimSeat } from "./seats";
import type { RsvpSubmission } from "./rsvp-schema";
import { requestLocale } from "@/lib/i18n/locales";
import { recipientLocale } from "@/lib/i18n/recipient-locale";
import { translator } from "@/lib/i18n/translator";
import { chooseTicketType, countCodeUse } from "../ticket-types/ticket-types";
import { waitlistPosition } from "../waitlist/offers";
import { issueTicket } from "../tickets/issue-ticket";

export type SubmitRsvpResult =
  | {
      data: {
        contactId: string;
        registrationId: string;
        alreadyRegistered: boolean;
        email: "queued" | "outbox" | "skipped" | "not_sent";
        /** 'waitlisted' with its number in line (DESIGN section 9, "Events"); else the registration's state */
        status: string;
        position: number | null;
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
 * - a new registration gets a transactional confirmation through the eligibility rules (8.3), in
 *   the registrant's language (docs/decisions.md, "Recipient languages": the page's `?lang=`, the
 *   contact's locale, `Accept-Language`, the workspace's default);
 * - an event with ticket types takes one (docs/decisions.md, "Ticket types"): the one named, the one
 *   its access code opens, or the only one offered; its own capacity counts as well as the event's;
 * - a full event (or type) whose waitlist is on puts the person in line ('waitlisted', with their
 *   number) instead of refusing (docs/decisions.md, "A waitlist that fills itself").
 */
export async function submitRsvp(
  db: Db,
  input: {
    eventId: string;
    rsvp: RsvpSubmission;
    ip: string | null;
    now?: Date;
    language?: { lang?: string | null; acceptLanguage?: string | null };
  },
): Promise<SubmitRsvpResult> {
  const availability = await loadRsvpEvent(db, input.eventId, input.now);
  if ("error" in availability) return availability;
  const event = availability.data;
  const { rsvp } = input;
  const chosen = await chooseTicketType(db, {
    eventId: event.id,
    ticketTypeId: rsvp.ticketTypeId,
    code: rsvp.code,
    now: input.now ?? new Date(),
  });
  if ("error" in chosen) return chosen;
  const { type, usesCode } = chosen.data;
  // capacity (docs/decisions.md, "RSVP and capacity"): refused before anything is written, or the
  // person joins the waitlist when the event keeps one
  const seat = await claimSeat(db, {
    eventId: event.id,
    email: rsvp.email,
    ticketType: type,
    lock: usesCode || event.waitlist_enabled,
  });
  if (seat === "full" && !event.waitlist_enabled) return { error: rsvpRefusal("event_full") };
  const status = seat === "full" ? "waitlisted" : "registered";

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
    insert into public.event_registrations
      (workspace_id, event_id, contact_id, amount_paid, status, ticket_type_id, waitlist_position)
    values (${event.workspace_id}, ${event.id}, ${contact.id}, 0, ${status}, ${type?.id ?? null},
            ${status === "waitlisted" ? db`nextval('public.event_waitlist_seq')` : null})
    on conflict (event_id, contact_id) where external_attendee_id is null do nothing
    returning id`;
  if (!created) {
    const [existing] = await db`
      select id, status from public.event_registrations
      where event_id = ${event.id} and contact_id = ${contact.id} and external_attendee_id is null`;
    return {
      data: {
        contactId: contact.id,
        registrationId: existing.id,
        alreadyRegistered: true,
        email: "not_sent",
        status: existing.status,
        position: existing.status === "waitlisted" ? await waitlistPosition(db, existing.id) : null,
      },
    };
  }
  // an access code's use, counted under the event's lock: past its limit nothing is kept
  if (usesCode && !(await countCodeUse(db, type!.id)))
    throw new AppError("ticket_unavailable", "This access code has been used up.", { field: "code" });
  // the page's language becomes the contact's when they have none, as a form's does: what reaches
  // them later (a waitlist offer, a reminder) is then in it (docs/decisions.md, "Recipient languages")
  const spoken = requestLocale(input.language);
  if (spoken)
    await db`update public.contacts set locale = ${spoken}
             where id = ${contact.id} and workspace_id = ${event.workspace_id} and locale is null`;
  if (status === "waitlisted")
    return {
      data: {
        contactId: contact.id,
        registrationId: created.id,
        alreadyRegistered: false,
        email: "not_sent",
        status,
        position: await waitlistPosition(db, created.id),
      },
    };

  const locale = await recipientLocale(db, {
    contactId: contact.id,
    workspaceId: event.workspace_id,
    lang: input.language?.lang,
    acceptLanguage: input.language?.acceptLanguage,
  });
  // the signed ticket (DESIGN section 9, "Events"), in the confirmation
  const ticket = await issueTicket(db, { workspaceId: event.workspace_id, registrationId: created.id });
  const message = rsvpConfirmationEmail(
    event,
    contact.first_name,
    translator(locale, event.timezone),
    ticket,
  );
  const sent = await sendEmail(db, {
    workspaceId: event.workspace_id,
    contactId: contact.id,
    to: contact.email,
    kind: "transactional",
    ...message,
  });
  return {
    data: {
      contactId: contact.id,
      registrationId: created.id,
      alreadyRegistered: false,
      email: sent.status,
      status,
      position: null,
    },
  };
}
