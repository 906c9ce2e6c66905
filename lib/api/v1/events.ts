import { z } from "zod";
import { eventExists } from "@/lib/events/event-exists";
import { getEventsAfter, type EventListItem } from "@/lib/events/get-events";
import { listEventRegistrations } from "@/lib/events/list-event-registrations";
import { listPublicEvents, publicEventSchema } from "@/lib/events/public-api/list-public-events";
import { checkInTicket, type CheckIn } from "@/lib/events/tickets/check-in";
import { existingTicketPublicKey } from "@/lib/events/tickets/ticket-keys";
import { MAX_TICKET_LENGTH, publicJwk } from "@/lib/events/tickets/ticket-token";
import { bodyErrors, defineOperation, invalid, notFound } from "./define";
import { apiErrorBody } from "./errors";
import { apiText, idParams, iso, keysetAfter, keysetList, keysetPage, mustExist, timestamp } from "./keyset";
import { listSchema, pageQuerySchema } from "./pagination";
import { created, ok } from "./route";

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
  checked_in: flag("checked_in"),
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
  description:
    "Newest first; `search` (email or name), `status` and `checked_in` (true: checked in at the door) filter " +
    "as on the event page.",
  params: idParams,
  query: registrationQuerySchema,
  success: { status: 200, schema: registrationsListSchema, description: "A page of registrations." },
  errors: [invalid, notFound],
  async handler({ db, workspaceId, params, query: q }) {
    const eventId = params.id;
    mustExist(await eventExists(db, { workspaceId, eventId }));
    const read = (page: { limit: number; after: { key: string; id: string } | null }) =>
      listEventRegistrations(db, {
        workspaceId,
        eventId,
        search: q.search,
        status: q.status,
        checked_in: q.checked_in === undefined ? null : q.checked_in ? "yes" : "no",
        page,
      });
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

/** A check-in as v1 answers it (DESIGN section 9, "Events"; docs/decisions.md, "One check-in per registration"). */
export const checkInSchema = z
  .object({
    id: z.string(),
    event_id: z.string(),
    registration_id: z.string(),
    checked_in_at: timestamp.meta({
      description: "When the ticket was first scanned (the first scan wins).",
    }),
    checked_in_by: z
      .object({
        type: z.enum(["member", "api_key", "unknown"]),
        id: z.string().nullable(),
        name: z.string().nullable().meta({ description: "The member's email or the key's name." }),
      })
      .meta({ description: "Who checked the ticket in." }),
    device_id: z.string().nullable(),
    source: z.enum(["scanner", "api", "dashboard"]),
  })
  .meta({ id: "EventCheckIn" });

export const checkInBodySchema = z
  .strictObject({
    ticket: z
      .string({ error: "ticket is the token of a ticket." })
      .min(1, "ticket is the token of a ticket.")
      .max(MAX_TICKET_LENGTH, "ticket is longer than any ticket.")
      .meta({ description: "The ticket's token: what its QR code holds, the last part of its link." }),
    scanned_at: z.iso
      .datetime({ offset: true, error: "scanned_at is an ISO 8601 time with an offset." })
      .optional()
      .meta({
        description:
          "When an offline scanner scanned it (default: now; a future time counts as now; older than 7 days is 400). " +
          "Of two scans of one ticket, the earlier one holds the check-in.",
      }),
    device_id: apiText("device_id", 100)
      .optional()
      .meta({ description: "The scanning device, as the scanner names itself." }),
  })
  .meta({ id: "EventCheckInRequest" });

export const checkInObject = (eventId: string, c: CheckIn): z.output<typeof checkInSchema> => ({
  id: c.id,
  event_id: eventId,
  registration_id: c.registration_id,
  checked_in_at: c.checked_in_at.toISOString(),
  checked_in_by: c.checked_in_by_user_id
    ? { type: "member", id: c.checked_in_by_user_id, name: c.checked_in_by_label }
    : c.checked_in_by_api_key_id
      ? { type: "api_key", id: c.checked_in_by_api_key_id, name: c.checked_in_by_label }
      : { type: "unknown", id: null, name: c.checked_in_by_label },
  device_id: c.device_id,
  source: c.source,
});

/**
 * POST /api/v1/events/{id}/check-ins (DESIGN section 9, "Events"): a ticket checked in at its
 * event. 201 the first time; 409 `already_checked_in` after, with the first check-in; 404
 * `not_found` for a ticket of another event or workspace (or one whose registration is gone); 400
 * for a forged or altered one; 409 `ticket_cancelled` when its registration was cancelled.
 */
export const checkIn = defineOperation({
  method: "post",
  path: "/api/v1/events/{id}/check-ins",
  operationId: "checkInEventTicket",
  scope: "events:write",
  summary: "Check a ticket in at the door",
  description:
    "The ticket's signature is verified with the workspace's key (`GET /api/v1/events/ticket-key`): a forged or " +
    "altered token is 400 `invalid_request` and nothing is stored. A ticket of another event or workspace is " +
    "404 `not_found`. A registration is checked in once (a unique key, whatever the concurrency): a second scan " +
    "is 409 `already_checked_in`, and its body's `check_in` says who checked it in and when. Offline scanners send " +
    "`scanned_at`: the earliest scan holds the check-in.",
  params: idParams,
  body: checkInBodySchema,
  example: { ticket: "eyJhbGciOiJFZERTQSIsImtpZCI6Ii4uLiJ9.eyJ3IjoiLi4uIn0.c2lnbmF0dXJl" },
  success: { status: 201, schema: checkInSchema, description: "Checked in." },
  errors: [
    ...bodyErrors,
    notFound,
    {
      status: 409,
      codes: ["already_checked_in", "ticket_cancelled"],
      extra: {
        check_in: checkInSchema
          .optional()
          .meta({ description: "With `already_checked_in`: the first check-in." }),
      },
    },
  ],
  async handler({ db, workspaceId, key, params, body, audit }) {
    const result = await checkInTicket(db, {
      workspaceId,
      eventId: params.id,
      ticket: body.ticket,
      scannedAt: body.scanned_at ? new Date(body.scanned_at) : null,
      by: { apiKeyId: key.id, label: key.name, deviceId: body.device_id ?? null, source: "api" },
    });
    if ("error" in result) {
      const first = result.error.details?.check_in as CheckIn | undefined;
      if (result.error.code === "already_checked_in" && first)
        return {
          status: 409,
          body: { ...apiErrorBody(result.error), check_in: checkInObject(params.id, first) },
        };
      throw result.error;
    }
    const { checkIn: row } = result.data;
    await audit("event_registration.checked_in", ["event_registration", row.registration_id], {
      after: { event_id: params.id, checked_in_at: row.checked_in_at.toISOString(), source: "api" },
    });
    return created(checkInObject(params.id, row));
  },
});

export const ticketKeySchema = z
  .object({
    keys: z.array(
      z.object({
        kty: z.literal("OKP"),
        crv: z.literal("Ed25519"),
        x: z.string().meta({ description: "The raw public key, base64url." }),
        kid: z.string().meta({ description: "The key id a ticket's header names." }),
        alg: z.literal("EdDSA"),
        use: z.literal("sig"),
      }),
    ),
  })
  .meta({ id: "TicketKeySet" });

/**
 * GET /api/v1/events/ticket-key: the workspace's public ticket key as a JWK Set (RFC 7517), for
 * scanners that verify tickets offline (docs/decisions.md, "Signed tickets").
 */
export const ticketKey = defineOperation({
  method: "get",
  path: "/api/v1/events/ticket-key",
  operationId: "getTicketKey",
  scope: "events:read",
  summary: "The public key tickets are signed with",
  description:
    "A JWK Set with the workspace's Ed25519 public key (empty until the workspace's first ticket). A ticket is a compact JWS (`alg` EdDSA, `kid` the key's " +
    'id) whose payload is `{"w": workspace, "e": event, "r": registration, "t": ticket type or null}`.',
  success: { status: 200, schema: ticketKeySchema, description: "The key set." },
  errors: [],
  async handler({ db, workspaceId }) {
    const key = await existingTicketPublicKey(db, workspaceId);
    return ok({ keys: key ? [publicJwk(key)] : [] });
  },
});
