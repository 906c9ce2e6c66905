"use server";

import { refresh } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { unwrap } from "@/lib/errors/app-error";
import { setRegistrationCheckIn } from "@/lib/events/check-in-registration";
import { createEvent } from "@/lib/events/create-event";
import { deleteEvent } from "@/lib/events/delete-event";
import { eventFormSchema, linkedEventFormSchema } from "@/lib/events/schemas";
import { updateEvent } from "@/lib/events/update-event";
import {
  deleteTicketType,
  saveTicketType,
  ticketTypeFormSchema,
} from "@/lib/events/ticket-types/ticket-types";
import { cancelRegistration } from "@/lib/events/waitlist/offers";
import type { FormState } from "@/lib/http/form-state";
import { isUuid, uuidField } from "@/lib/ids/uuid";
import type { Role } from "@/lib/workspaces/list-memberships";

const admins = { roles: ADMIN_ROLES, forbidden: "Only owners and admins can change events." };
const eventId = uuidField("This event does not exist.");

/** A linked event's form (hidden `linked=1`) takes only what the ticketing sync does not own. */
const eventUpdate = z.looseObject({ eventId, linked: z.string().optional() }).transform((raw, ctx) => {
  const parsed = (raw.linked === "1" ? linkedEventFormSchema : eventFormSchema).safeParse(raw);
  if (parsed.success) return { eventId: raw.eventId, event: parsed.data };
  for (const issue of parsed.error.issues)
    ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
  return z.NEVER;
});

export const createEventAction = memberAction(
  eventFormSchema,
  async (db, event, ctx): Promise<FormState> => {
    const created = unwrap(await createEvent(db, { workspaceId: ctx.workspaceId, event }));
    ctx.audit
      .target("event", created.id)
      .change(null, { name: created.name, published: created.is_published });
    return {};
  },
  { ...admins, audit: "event.created", after: (_r, _i, ctx) => redirect(`/events/${ctx.audit.targetId}`) },
);

export const updateEventAction = memberAction(
  eventUpdate,
  async (db, { eventId, event }, ctx): Promise<FormState> => {
    const updated = unwrap(await updateEvent(db, { workspaceId: ctx.workspaceId, eventId, event }));
    ctx.audit.target("event", eventId).change(null, { name: updated.name, published: updated.is_published });
    return {};
  },
  {
    ...admins,
    audit: "event.updated",
    args: ["eventId"],
    after: (_r, i) => redirect(`/events/${i.eventId}?saved=1`),
  },
);

export const deleteEventAction = memberAction(
  z.object({ eventId: z.string() }),
  async (db, { eventId }, ctx): Promise<FormState & { deleted: boolean }> => {
    const result = isUuid(eventId) ? await deleteEvent(db, { workspaceId: ctx.workspaceId, eventId }) : null;
    const deleted = result !== null && "data" in result;
    if (deleted) ctx.audit.target("event", eventId);
    return { deleted };
  },
  {
    ...admins,
    // nothing deleted (a malformed or unknown id): no audit row, and the event's page says so
    audit: (_input, result) => (result.deleted ? "event.deleted" : null),
    after: (result, { eventId }) =>
      redirect(result.deleted ? "/events?deleted=1" : `/events/${encodeURIComponent(eventId)}?error=delete`),
  },
);

const EVERY_ROLE: Role[] = ["owner", "admin", "member"];

/**
 * The event page's check-in toggle (docs/decisions.md, "Segments": attendance): any member checks a
 * registrant in or undoes it. Registrations are written by the system only (spec 5.4), so this
 * runs as the service inside the member's own workspace; audited with the registration's contact.
 */
export const checkInRegistrationAction = memberAction(
  z.object({ registrationId: uuidField("Registration not found."), checkedIn: z.enum(["1", "0"]) }),
  async (db, input, ctx): Promise<FormState> => {
    const checkedIn = input.checkedIn === "1";
    const row = unwrap(
      await setRegistrationCheckIn(db, {
        workspaceId: ctx.workspaceId,
        registrationId: input.registrationId,
        checkedIn,
        by: { userId: ctx.userId, label: ctx.claims.email ?? null, source: "dashboard" },
      }),
    );
    ctx.audit
      .target("event_registration", row.id)
      .change(null, { event_id: row.event_id, contact_id: row.contact_id, checked_in_at: row.checked_in_at });
    return { success: checkedIn ? "Checked in." : "Check-in undone." };
  },
  {
    door: "service",
    roles: EVERY_ROLE,
    audit: (input) =>
      input.checkedIn === "1" ? "event_registration.checked_in" : "event_registration.check_in_undone",
    after: () => refresh(),
  },
);

/**
 * A ticket type added or changed on the event page (docs/decisions.md, "Ticket types"): owners and
 * admins; a capacity below the type's seats taken is refused with the numbers.
 */
export const saveTicketTypeAction = memberAction(
  z.looseObject({ eventId, ticketTypeId: z.string().optional() }).transform((raw, ctx) => {
    const parsed = ticketTypeFormSchema.safeParse(raw);
    if (parsed.success)
      return { eventId: raw.eventId, ticketTypeId: raw.ticketTypeId || null, type: parsed.data };
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: "custom", path: issue.path, message: issue.message });
    return z.NEVER;
  }),
  async (db, input, ctx): Promise<FormState> => {
    const saved = unwrap(await saveTicketType(db, { workspaceId: ctx.workspaceId, ...input }));
    ctx.audit
      .target("event", input.eventId)
      .change(null, { ticket_type_id: saved.id, name: saved.name, capacity: saved.capacity });
    return { success: "Ticket type saved." };
  },
  { ...admins, audit: "event_ticket_type.saved", args: ["eventId"], after: () => refresh() },
);

export const deleteTicketTypeAction = memberAction(
  z.object({ eventId, ticketTypeId: uuidField("This ticket type does not exist.") }),
  async (db, input, ctx): Promise<FormState> => {
    unwrap(await deleteTicketType(db, { workspaceId: ctx.workspaceId, ...input }));
    ctx.audit.target("event", input.eventId).change({ ticket_type_id: input.ticketTypeId }, null);
    return { success: "Ticket type removed." };
  },
  { ...admins, audit: "event_ticket_type.deleted", after: () => refresh() },
);

/**
 * Cancels a registration from the event page (owners and admins): its seat, if it held one, is
 * offered to the first in line on the waitlist at once (docs/decisions.md, "A waitlist that fills
 * itself"). Registrations are system-written (spec 5.4): the service door, scoped to the workspace.
 */
export const cancelRegistrationAction = memberAction(
  z.object({ registrationId: uuidField("Registration not found.") }),
  async (db, input, ctx): Promise<FormState> => {
    const row = unwrap(await cancelRegistration(db, { workspaceId: ctx.workspaceId, ...input }));
    ctx.audit
      .target("event_registration", row.id)
      .change(null, { event_id: row.eventId, status: "cancelled", offers_sent: row.offered.length });
    return { success: "Registration cancelled." };
  },
  {
    door: "service",
    roles: ADMIN_ROLES,
    forbidden: admins.forbidden,
    audit: "event_registration.cancelled",
    after: () => refresh(),
  },
);
