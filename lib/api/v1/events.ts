import { z } from "zod";
import { eventExists } from "@/lib/events/event-exists";
import { getEventsAfter, type EventListItem } from "@/lib/events/get-events";
import { listEventRegistrations } from "@/lib/events/list-event-registrations";
import { listPublicEvents, publicEventSchema } from "@/lib/events/public-api/list-public-events";
import { defineOperation, invalid, notFound } from "./define";
import { apiText, idParams, iso, keysetAfter, keysetList, keysetPage, mustExist, timestamp } from "./keyset";
import { listSchema, pageQuerySchema } from "./pagination";
import { ok } from "./route";

/** `true` or `false` in a query string; absent is "either". */
const flag = (what: string) =>
  z
    .enum(["true", "false"], { error: `${what} is true or false.` })
    .transform((v) => v === "true")
    .optional();

/** GET /api/v1/events: the filters of spec 4.15 getEvents in snake_case, and the page. */
export const eventListQuerySchema = pageQuerySchema.extend({
  search: apiText("search", 200).optional(),
  upcoming: flag("upcoming"),
  published: flag("published"),
  sort_by: z.enum(["name", "created_at", "start_time"]).default("start_time"),
  sort_dir: z.enum(["asc", "desc"]).default("asc"),
});

export const eventSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    location: z.string().nullable(),
    start_time: timestamp.nullable(),
    end_time: timestamp.nullable(),
    timezone: z.string(),
    is_published: z.boolean(),
    capacity: z.number().int().nullable().meta({ description: "Seats; null is unlimited." }),
    registration_count: z.number().int().meta({ description: "Active registrations." }),
    ticket_price: z.string().nullable().meta({ description: "Dollars, from the ticketing provider." }),
    eventbrite_url: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "Event" });

export const registrationQuerySchema = pageQuerySchema.extend({
  search: apiText("search", 200).optional(),
  status: z.enum(["registered", "cancelled", "waitlisted", "offered"]).optional(),
});

export const registrationSchema = z
  .object({
    id: z.string(),
    contact_id: z.string(),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    status: z.enum(["registered", "cancelled", "waitlisted", "offered"]).meta({
      description:
        "'registered' or 'cancelled' (spec 2.8); 'waitlisted' (in line for a seat of a full event) or 'offered' (a seat held until its claim link expires).",
    }),
    amount_paid: z.string().meta({ description: "Dollars." }),
    external_attendee_id: z.string().nullable(),
    created_at: timestamp,
    checked_in_at: timestamp
      .nullable()
      .meta({ description: "When the registrant was checked in at the event; null: not attended." }),
  })
  .meta({ id: "EventRegistration" });

const eventObject = (e: EventListItem): z.output<typeof eventSchema> => ({
  id: e.id,
  name: e.name,
  description: e.description,
  location: e.location,
  start_time: iso(e.start_time),
  end_time: iso(e.end_time),
  timezone: e.timezone,
  is_published: e.is_published === true,
  capacity: e.capacity,
  registration_count: e.registration_count,
  ticket_price: e.ticket_price,
  eventbrite_url: e.eventbrite_url,
  created_at: e.created_at.toISOString(),
  updated_at: e.updated_at.toISOString(),
});

export const eventsListSchema = listSchema(eventSchema).meta({ id: "EventList" });
export const registrationsListSchema = listSchema(registrationSchema).meta({ id: "EventRegistrationList" });

/** GET /api/v1/events: spec 4.15 getEvents, unpublished included unless `published` says otherwise, by cursor. */
export const list = defineOperation({
  method: "get",
  path: "/api/v1/events",
  operationId: "listEvents",
  scope: "events:read",
  summary: "List events (spec 4.15 getEvents)",
  description:
    "Every event of the workspace, published or not (`published` filters), with the filters of spec 4.15 " +
    "getEvents: `search` (name or location), `upcoming`, `published`, `sort_by`, `sort_dir`.",
  query: eventListQuerySchema,
  success: { status: 200, schema: eventsListSchema, description: "A page of events." },
  errors: [invalid],
  async handler({ db, workspaceId, query: q }) {
    const order = `events:${q.sort_by}:${q.sort_dir}`;
    const after = keysetAfter(order, q.cursor, q.sort_by === "name" ? "text" : "timestamptz");
    const rows = await getEventsAfter(db, {
      workspaceId,
      limit: q.limit,
      after,
      search: q.search,
      upcoming: q.upcoming,
      published: q.published,
      sortBy: q.sort_by,
      sortDir: q.sort_dir,
    });
    return ok(keysetPage(order, rows, q.limit, eventObject));
  },
});

/** GET /api/v1/events/{id}/registrations: the event page's list and filters, newest first, by cursor. */
export const listRegistrations = defineOperation({
  method: "get",
  path: "/api/v1/events/{id}/registrations",
  operationId: "listEventRegistrations",
  scope: "events:read",
  summary: "List an event's registrations",
  description: "Newest first; `search` (email or name) and `status` filter as on the event page.",
  params: idParams,
  query: registrationQuerySchema,
  success: { status: 200, schema: registrationsListSchema, description: "A page of registrations." },
  errors: [invalid, notFound],
  async handler({ db, workspaceId, params, query: q }) {
    const eventId = params.id;
    mustExist(await eventExists(db, { workspaceId, eventId }));
    const read = (page: { limit: number; after: { key: string; id: string } | null }) =>
      listEventRegistrations(db, { workspaceId, eventId, search: q.search, status: q.status, page });
    return ok(
      await keysetList("registrations:created_at:desc", q, "timestamptz", read, (r) => ({
        id: r.id,
        contact_id: r.contact_id,
        email: r.email,
        first_name: r.first_name,
        last_name: r.last_name,
        status: r.status,
        amount_paid: String(r.amount_paid),
        external_attendee_id: r.external_attendee_id,
        created_at: r.created_at.toISOString(),
        checked_in_at: iso(r.checked_in_at),
      })),
    );
  },
});

/**
 * GET /api/v1/public/events (spec 4.14): the workspace's published events whose end is later than
 * now, ascending by start, for any website to show. Served through the public door
 * (lib/api/v1/public-route.ts: `?key=` as well as Bearer, CORS, ETag, caches), whose error body is
 * the public list's own `{ "error": "<text>" }` rather than the v1 one (`access` in define.ts).
 */
export const listPublic = defineOperation({
  method: "get",
  path: "/api/v1/public/events",
  operationId: "listPublicEvents",
  scope: "events:read",
  summary: "Published upcoming events (spec 4.14)",
  description:
    "Authenticated with a public events API key (Settings → API keys) as a Bearer token or `?key=`. Any origin " +
    "may read it (CORS *). Cacheable for 60 s per key; an unchanged list answers 304 to If-None-Match.",
  query: z.object({ key: z.string().optional() }),
  success: {
    status: 200,
    schema: z.array(publicEventSchema),
    description: "Events whose end is later than now, ascending by start.",
  },
  errors: [],
  access: "public",
  async handler({ db, workspaceId }) {
    return ok(await listPublicEvents(db, { workspaceId }));
  },
});
