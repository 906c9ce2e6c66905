import { createHash, randomBytes } from "node:crypto";
import { asService, type Db } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { sendEmail } from "@/lib/email/send-email";
import { refused, type Result } from "@/lib/errors/app-error";
import { escapeHtml } from "@/lib/html/escape";
import { isUuid } from "@/lib/ids/uuid";
import { eventDateTime } from "@/lib/i18n/event-time";
import { recipientLocale, withLang } from "@/lib/i18n/recipient-locale";
import { htmlMessage, textMessage } from "@/lib/i18n/rich";
import { translator, type Translator } from "@/lib/i18n/translator";
import type { EventRow } from "../event-row";
import { SEAT_STATUSES, seatsTaken } from "../rsvp/seats";

/** The sha-256 (hex) of a claim link's token: what the database keeps. */
export const offerTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");

/** The claim link of an offer (DESIGN section 9, "Events"). */
export const claimUrl = (eventId: string, token: string) =>
  `${appUrl()}/rsvp/${eventId}/claim?token=${encodeURIComponent(token)}`;

/** A waitlisted registration's number in its line: those of its event and type waiting before it, plus one. */
export async function waitlistPosition(db: Db, registrationId: string): Promise<number | null> {
  const [row] = await db<{ position: number | null }[]>`
    select (select count(*)::int from public.event_registrations o
            where o.event_id = r.event_id and o.status = 'waitlisted'
              and o.ticket_type_id is not distinct from r.ticket_type_id
              and o.waitlist_position <= r.waitlist_position) as position
    from public.event_registrations r
    where r.id = ${registrationId} and r.status = 'waitlisted'`;
  return row?.position ?? null;
}

/**
 * The offer email: a seat is held for you until …, with the claim link, in the waiting person's
 * language (docs/decisions.md, "Recipient languages"; the claim page opens in it too: the link
 * carries `lang` when it is not English). Times in the event's zone.
 */
export function offerEmail(
  event: EventRow,
  firstName: string | null,
  link: string,
  expiresAt: Date,
  t: Translator = translator("en"),
) {
  const title = event.website_title ?? event.name;
  const when = eventDateTime(t, event.start_time, event.timezone);
  const until = eventDateTime(t, expiresAt, event.timezone);
  const url = withLang(link, t.locale);
  const greeting = firstName
    ? textMessage(t, "rsvpEmail.greetingName", { name: firstName })
    : textMessage(t, "rsvpEmail.greeting");
  const subject = textMessage(t, "waitlist.offerSubject", { title });
  const text = [
    greeting,
    "",
    textMessage(t, "waitlist.offerOpened", { title, when, until }),
    "",
    textMessage(t, "waitlist.offerClaimText", { url }),
    "",
    textMessage(t, "waitlist.offerNext"),
  ].join("\n");
  const html = [
    `<p>${escapeHtml(greeting)}</p>`,
    `<p>${htmlMessage(t, "waitlist.offerOpened", { title, when, until })}</p>`,
    `<p><a href="${escapeHtml(url)}">${htmlMessage(t, "waitlist.offerClaim")}</a></p>`,
    `<p>${htmlMessage(t, "waitlist.offerNext")}</p>`,
  ].join("");
  return { subject, html, text };
}

interface Waiting {
  id: string;
  workspace_id: string;
  contact_id: string;
  ticket_type_id: string | null;
  email: string;
  first_name: string | null;
}

/**
 * Offers an event's free seats to its waitlist, first come first served (docs/decisions.md, "A
 * waitlist that fills itself"). Call it whenever a seat may have freed: a cancellation, a refund, a
 * capacity raised, an expired offer or an expired hold for payment. Under the event's row lock (the
 * lock every RSVP, claim and release takes first), so concurrent releases queue and each sees the
 * offers the one before made: n seats freed at once give n offers, to the first n in line. The first
 * in line whose type has a seat left gets each seat; an offer holds its seat until `offer_hours`
 * pass. Runs as the service (registrations are system-written, spec 5.4), whoever calls.
 */
export async function releaseSeats(
  db: Db,
  input: { eventId: string; now?: Date },
): Promise<{ offered: string[] }> {
  return asService(db, async () => {
    const now = input.now ?? new Date();
    const [event] = await db<EventRow[]>`select * from public.events where id = ${input.eventId} for update`;
    if (!event) return { offered: [] };
    // no seat is offered for an event that has started
    if (event.start_time && event.start_time.getTime() <= now.getTime()) return { offered: [] };
    const types = await db<{ id: string; capacity: number | null }[]>`
      select id, capacity from public.event_ticket_types where event_id = ${event.id} and capacity is not null`;
    const taken = await seatsTaken(db, event.id);
    let eventFree = event.capacity === null ? Infinity : event.capacity - taken.event;
    const typeFree = new Map(types.map((t) => [t.id, t.capacity! - (taken.byType.get(t.id) ?? 0)]));
    if (eventFree <= 0) return { offered: [] };
    const hasTypeCaps = types.length > 0;
    const line = await db<Waiting[]>`
      select r.id, r.workspace_id, r.contact_id, r.ticket_type_id, c.email, c.first_name
      from public.event_registrations r
      join public.contacts c on c.id = r.contact_id and c.workspace_id = r.workspace_id
      where r.event_id = ${event.id} and r.status = 'waitlisted'
      order by r.waitlist_position
      ${hasTypeCaps || eventFree === Infinity ? db`` : db`limit ${eventFree}`}
      for update of r`;
    const offered: string[] = [];
    for (const person of line) {
      if (eventFree <= 0) break;
      const typeLeft = person.ticket_type_id ? typeFree.get(person.ticket_type_id) : undefined;
      if (typeLeft !== undefined && typeLeft <= 0) continue;
      await makeOffer(db, event, person, now);
      offered.push(person.id);
      eventFree -= 1;
      if (typeLeft !== undefined) typeFree.set(person.ticket_type_id!, typeLeft - 1);
    }
    return { offered };
  });
}

async function makeOffer(db: Db, event: EventRow, person: Waiting, now: Date): Promise<void> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(now.getTime() + event.offer_hours * 3600_000);
  await db`
    update public.event_registrations
    set status = 'offered', offered_at = ${now}, offer_expires_at = ${expiresAt},
        offer_token_hash = ${offerTokenHash(token)}
    where id = ${person.id}`;
  const locale = await recipientLocale(db, { contactId: person.contact_id, eventId: event.id });
  const message = offerEmail(
    event,
    person.first_name,
    claimUrl(event.id, token),
    expiresAt,
    translator(locale, event.timezone),
  );
  await sendEmail(db, {
    workspaceId: person.workspace_id,
    contactId: person.contact_id,
    to: person.email,
    kind: "transactional",
    redact: [token, encodeURIComponent(token)],
    ...message,
  });
}

/**
 * The offers whose time ran out (the 'waitlist-offers-sweep' job, every minute): each is cancelled
 * (its link then says it expired) and its seat offered to the next in line, event by event under
 * the event's lock. Returns how many expired.
 */
export async function expireOffers(db: Db, input: { now?: Date; limit?: number } = {}): Promise<number> {
  const now = input.now ?? new Date();
  const events = await db<{ event_id: string }[]>`
    select distinct event_id from public.event_registrations
    where status = 'offered' and offer_expires_at <= ${now}
    limit ${input.limit ?? 500}`;
  let expired = 0;
  for (const { event_id } of events) {
    await db`select 1 from public.events where id = ${event_id} for update`;
    const rows = await db`
      update public.event_registrations set status = 'cancelled'
      where event_id = ${event_id} and status = 'offered' and offer_expires_at <= ${now}
      returning id`;
    expired += rows.length;
    await releaseSeats(db, { eventId: event_id, now });
  }
  return expired;
}

export type ClaimRefusal = "not_found" | "offer_used" | "offer_expired";

/** What a claim link is now: open (with its event and who it is for), or why it is refused. */
export async function readOffer(
  db: Db,
  input: { eventId: string; token: string; now?: Date; lock?: boolean },
): Promise<Result<{ registrationId: string; workspaceId: string; contactId: string; expiresAt: Date }>> {
  const now = input.now ?? new Date();
  const invalid = refused(
    "not_found",
    "This link is not valid: check that you opened the whole link from your email.",
  );
  if (!isUuid(input.eventId) || !input.token || input.token.length > 200) return invalid;
  if (input.lock) await db`select 1 from public.events where id = ${input.eventId} for update`;
  const [row] = await db<
    { id: string; workspace_id: string; contact_id: string; status: string; offer_expires_at: Date | null }[]
  >`
    select id, workspace_id, contact_id, status, offer_expires_at from public.event_registrations
    where event_id = ${input.eventId} and offer_token_hash = ${offerTokenHash(input.token)}
    ${input.lock ? db`for update` : db``}`;
  if (!row) return invalid;
  if ((SEAT_STATUSES as readonly string[]).includes(row.status) && row.status !== "offered")
    return refused("offer_used");
  if (row.status !== "offered" || !row.offer_expires_at || row.offer_expires_at.getTime() <= now.getTime())
    return refused("offer_expired");
  return {
    data: {
      registrationId: row.id,
      workspaceId: row.workspace_id,
      contactId: row.contact_id,
      expiresAt: row.offer_expires_at,
    },
  };
}

/**
 * Claims an offer by its link's token: the held seat becomes a registration. Refused, and nothing
 * changes, for a wrong token (not found), one already claimed (offer_used), or one whose time ran
 * out (offer_expired; the sweep passes the seat on). Under the event's lock, so a claim and the
 * sweep expiring the same offer cannot both win.
 */
export async function claimOffer(
  db: Db,
  input: { eventId: string; token: string; now?: Date },
): Promise<Result<{ registrationId: string; workspaceId: string; contactId: string }>> {
  return asService(db, async () => {
    const offer = await readOffer(db, { ...input, lock: true });
    if ("error" in offer) return offer;
    await db`
      update public.event_registrations set status = 'registered'
      where id = ${offer.data.registrationId}`;
    return {
      data: {
        registrationId: offer.data.registrationId,
        workspaceId: offer.data.workspaceId,
        contactId: offer.data.contactId,
      },
    };
  });
}

/**
 * Cancels a registration (the dashboard, a refund): a seat it held goes to the waitlist at once.
 * Another workspace's registration is not found.
 */
export async function cancelRegistration(
  db: Db,
  input: { workspaceId: string; registrationId: string; now?: Date },
): Promise<Result<{ id: string; eventId: string; offered: string[] }>> {
  if (!isUuid(input.registrationId)) return refused("not_found", "Registration not found.");
  return asService(db, async () => {
    const [found] = await db<{ event_id: string }[]>`
      select event_id from public.event_registrations
      where id = ${input.registrationId} and workspace_id = ${input.workspaceId}`;
    if (!found) return refused("not_found", "Registration not found.");
    await db`select 1 from public.events where id = ${found.event_id} for update`;
    const [before] = await db<{ status: string }[]>`
      select status from public.event_registrations where id = ${input.registrationId} for update`;
    if (before.status === "cancelled")
      return { data: { id: input.registrationId, eventId: found.event_id, offered: [] } };
    await db`update public.event_registrations set status = 'cancelled' where id = ${input.registrationId}`;
    const freed = (SEAT_STATUSES as readonly string[]).includes(before.status);
    const { offered } = freed
      ? await releaseSeats(db, { eventId: found.event_id, now: input.now })
      : { offered: [] };
    return { data: { id: input.registrationId, eventId: found.event_id, offered } };
  });
}
