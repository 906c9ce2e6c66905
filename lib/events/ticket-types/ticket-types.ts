import { z } from "zod";
import { asServiceForMember, type Db } from "@/lib/db/doors";
import { AppError, refused, type Result } from "@/lib/errors/app-error";
import { isUuid } from "@/lib/ids/uuid";
import { zonedInputToUtc } from "@/lib/time/format";
import { seatsTaken } from "../rsvp/seats";
import { releaseSeats } from "../waitlist/offers";

/** An event_ticket_types row (DESIGN section 9, "Events"; docs/decisions.md, "Ticket types"). */
export interface TicketTypeRow {
  id: string;
  workspace_id: string;
  event_id: string;
  name: string;
  description: string | null;
  capacity: number | null;
  price_cents: number;
  sales_start_at: Date | null;
  sales_end_at: Date | null;
  is_hidden: boolean;
  access_code: string | null;
  access_code_limit: number | null;
  access_code_uses: number;
  sort_order: number;
  external_ticket_class_id: string | null;
}

/** An event's types in their order. */
export function listTicketTypes(db: Db, eventId: string): Promise<TicketTypeRow[]> {
  return db<TicketTypeRow[]>`
    select * from public.event_ticket_types where event_id = ${eventId} order by sort_order, created_at, id`;
}

/** Whether a type is on sale at `now` (its window; no window is always). */
export function onSale(type: TicketTypeRow, now: Date): boolean {
  if (type.sales_start_at && type.sales_start_at.getTime() > now.getTime()) return false;
  if (type.sales_end_at && type.sales_end_at.getTime() <= now.getTime()) return false;
  return true;
}

/** Whether `code` opens `type`: its access code, whatever the case. */
export const codeMatches = (type: TicketTypeRow, code: string | null | undefined): boolean =>
  !!code && !!type.access_code && type.access_code.toLowerCase() === code.trim().toLowerCase();

/** The types a visitor sees on the RSVP page: visible ones, and a hidden one only with its code. */
export function visibleTicketTypes(types: TicketTypeRow[], code: string | null | undefined): TicketTypeRow[] {
  return types.filter((t) => !t.is_hidden || codeMatches(t, code));
}

const NO_SUCH_TYPE = "Choose one of the ticket types offered.";

/**
 * The type an RSVP takes (docs/decisions.md, "Ticket types"): null for an event without types;
 * otherwise the one named (a hidden one only with its code, else it is not found, like an unknown
 * id), or the one a code opens, or the only one offered. Refused when it is not on sale now, is paid
 * (the paid path takes those), or its code has reached its use limit (checked again under the
 * event's lock by `countCodeUse`).
 */
export async function chooseTicketType(
  db: Db,
  input: { eventId: string; ticketTypeId?: string | null; code?: string | null; now: Date },
): Promise<Result<{ type: TicketTypeRow | null; usesCode: boolean }>> {
  const types = await listTicketTypes(db, input.eventId);
  if (types.length === 0) return { data: { type: null, usesCode: false } };
  const offered = visibleTicketTypes(types, input.code);
  let type: TicketTypeRow | undefined;
  if (input.ticketTypeId) type = offered.find((t) => t.id === input.ticketTypeId);
  else if (input.code) type = offered.find((t) => codeMatches(t, input.code));
  else if (offered.length === 1) type = offered[0];
  if (!type) return refused("invalid", NO_SUCH_TYPE, { field: "ticket_type_id" });
  if (!onSale(type, input.now))
    return refused("ticket_unavailable", `${type.name} is not on sale now.`, { field: "ticket_type_id" });
  if (type.price_cents > 0)
    return refused(
      "ticket_unavailable",
      `${type.name} is a paid ticket: it cannot be taken with a free RSVP.`,
      {
        field: "ticket_type_id",
      },
    );
  const usesCode = codeMatches(type, input.code);
  if (usesCode && type.access_code_limit !== null && type.access_code_uses >= type.access_code_limit)
    return refused("ticket_unavailable", "This access code has been used up.", { field: "code" });
  return { data: { type, usesCode } };
}

/**
 * Counts one use of a type's access code, under the event's lock (the RSVP's seat check took it),
 * refusing past its limit: the check and the count are one statement.
 */
export async function countCodeUse(db: Db, typeId: string): Promise<boolean> {
  const [row] = await db`
    update public.event_ticket_types set access_code_uses = access_code_uses + 1
    where id = ${typeId} and (access_code_limit is null or access_code_uses < access_code_limit)
    returning id`;
  return !!row;
}

const blankToNull = (v: unknown) => (v === undefined || v === null || String(v).trim() === "" ? null : v);
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;
const optionalLocal = z.preprocess(blankToNull, z.string().regex(LOCAL, "Enter a date and time.").nullable());
const checkbox = z
  .union([z.string(), z.boolean()])
  .nullish()
  .transform((v) => v === true || v === "on" || v === "true" || v === "1");

/** The dashboard's ticket type form: sale times are wall-clock times in the event's zone. */
export const ticketTypeFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Name the ticket type.")
      .max(200, "The name is too long (at most 200 characters)."),
    description: z.preprocess(
      blankToNull,
      z.string().trim().max(2000, "The description is too long.").nullable(),
    ),
    capacity: z.preprocess(
      blankToNull,
      z.coerce
        .number()
        .int("Capacity is a whole number of seats, or empty.")
        .min(1, "Capacity is at least 1 seat, or empty.")
        .max(1_000_000)
        .nullable(),
    ),
    price_cents: z.preprocess(
      (v) => blankToNull(v) ?? 0,
      z.coerce.number().int("The price is a whole number of cents.").min(0, "The price cannot be negative."),
    ),
    sales_start: optionalLocal,
    sales_end: optionalLocal,
    is_hidden: checkbox,
    access_code: z.preprocess(
      blankToNull,
      z
        .string()
        .trim()
        .min(1)
        .max(100, "The access code is too long (at most 100 characters).")
        .regex(/^[A-Za-z0-9_-]+$/, "Use letters, digits, - and _ in the access code.")
        .nullable(),
    ),
    access_code_limit: z.preprocess(
      blankToNull,
      z.coerce.number().int().min(1, "The use limit is at least 1, or empty.").nullable(),
    ),
    sort_order: z.preprocess((v) => blankToNull(v) ?? 0, z.coerce.number().int().min(-1000).max(1000)),
  })
  .refine((t) => !t.is_hidden || t.access_code !== null, {
    path: ["access_code"],
    message: "A hidden ticket type needs an access code.",
  })
  .refine((t) => !t.sales_start || !t.sales_end || t.sales_end > t.sales_start, {
    path: ["sales_end"],
    message: "The sale must end after it starts.",
  });
export type TicketTypeFormInput = z.infer<typeof ticketTypeFormSchema>;

const notAdmin = () => new AppError("forbidden", "Only owners and admins can change events.");

/** The seats-taken refusal, with the numbers. */
function belowTaken(what: string, taken: number, wanted: number): Result<never> {
  return refused(
    "conflict",
    `${what} has ${taken} ${taken === 1 ? "seat" : "seats"} taken: its capacity cannot go below ${taken} (asked for ${wanted}).`,
    { field: "capacity", details: { seats_taken: taken, capacity: wanted } },
  );
}

/** The capacity refusal of an event (for updateEvent), under the event's row lock. */
export async function checkEventCapacity(
  db: Db,
  input: { eventId: string; capacity: number | null },
): Promise<Result<{ raised: boolean; before: number | null }>> {
  const [current] = await db<{ capacity: number | null }[]>`
    select capacity from public.events where id = ${input.eventId} for update`;
  if (!current) return refused("not_found", "This event does not exist.");
  if (input.capacity !== null) {
    const { event: taken } = await seatsTaken(db, input.eventId);
    if (input.capacity < taken) return belowTaken("This event", taken, input.capacity);
  }
  const raised = current.capacity !== null && (input.capacity === null || input.capacity > current.capacity);
  return { data: { raised, before: current.capacity } };
}

/**
 * Adds or changes a ticket type of an event (owners and admins; written as the service, so the
 * capacity check under the event's lock cannot be skipped). A capacity below the type's seats taken
 * is refused with the numbers; a capacity raised offers the freed seats to the waitlist.
 */
export async function saveTicketType(
  db: Db,
  input: { workspaceId: string; eventId: string; ticketTypeId?: string | null; type: TicketTypeFormInput },
): Promise<Result<TicketTypeRow>> {
  if (!isUuid(input.eventId) || (input.ticketTypeId && !isUuid(input.ticketTypeId)))
    return refused("not_found", "This ticket type does not exist.");
  return asServiceForMember(
    db,
    input.workspaceId,
    notAdmin,
    async () => {
      const [event] = await db<{ id: string; timezone: string }[]>`
        select id, timezone from public.events
        where id = ${input.eventId} and workspace_id = ${input.workspaceId} for update`;
      if (!event) return refused("not_found", "This event does not exist.");
      const t = input.type;
      const columns = {
        name: t.name,
        description: t.description,
        capacity: t.capacity,
        price_cents: t.price_cents,
        sales_start_at: t.sales_start ? zonedInputToUtc(t.sales_start, event.timezone) : null,
        sales_end_at: t.sales_end ? zonedInputToUtc(t.sales_end, event.timezone) : null,
        is_hidden: t.is_hidden,
        access_code: t.access_code,
        access_code_limit: t.access_code_limit,
        sort_order: t.sort_order,
      };
      let row: TicketTypeRow | undefined;
      let raised = false;
      try {
        if (input.ticketTypeId) {
          const [current] = await db<TicketTypeRow[]>`
            select * from public.event_ticket_types
            where id = ${input.ticketTypeId} and event_id = ${event.id} and workspace_id = ${input.workspaceId}`;
          if (!current) return refused("not_found", "This ticket type does not exist.");
          if (t.capacity !== null) {
            const taken = (await seatsTaken(db, event.id)).byType.get(current.id) ?? 0;
            if (t.capacity < taken) return belowTaken(current.name, taken, t.capacity);
          }
          raised = current.capacity !== null && (t.capacity === null || t.capacity > current.capacity);
          [row] = await db<TicketTypeRow[]>`
            update public.event_ticket_types set ${db(columns)}
            where id = ${current.id} and workspace_id = ${input.workspaceId} returning *`;
        } else {
          [row] = await db<TicketTypeRow[]>`
            insert into public.event_ticket_types ${db({ ...columns, workspace_id: input.workspaceId, event_id: event.id })}
            returning *`;
        }
      } catch (error) {
        if ((error as { code?: string }).code === "23505")
          return refused("conflict", "Another ticket type of this event has this access code.", {
            field: "access_code",
          });
        throw error;
      }
      if (raised) await releaseSeats(db, { eventId: event.id });
      return { data: row! };
    },
    ["owner", "admin"],
  );
}

/** Removes a ticket type nobody registered with (a type with registrations is refused: cancel them first). */
export async function deleteTicketType(
  db: Db,
  input: { workspaceId: string; eventId: string; ticketTypeId: string },
): Promise<Result<{ id: string }>> {
  if (!isUuid(input.ticketTypeId) || !isUuid(input.eventId))
    return refused("not_found", "This ticket type does not exist.");
  return asServiceForMember(
    db,
    input.workspaceId,
    notAdmin,
    async () => {
      const [used] = await db<{ n: number }[]>`
        select count(*)::int as n from public.event_registrations
        where workspace_id = ${input.workspaceId} and event_id = ${input.eventId} and ticket_type_id = ${input.ticketTypeId}`;
      if (used.n > 0)
        return refused(
          "conflict",
          `This ticket type has ${used.n} ${used.n === 1 ? "registration" : "registrations"}: it cannot be removed.`,
        );
      const [row] = await db<{ id: string }[]>`
        delete from public.event_ticket_types
        where id = ${input.ticketTypeId} and event_id = ${input.eventId} and workspace_id = ${input.workspaceId}
        returning id`;
      return row ? { data: row } : refused("not_found", "This ticket type does not exist.");
    },
    ["owner", "admin"],
  );
}
