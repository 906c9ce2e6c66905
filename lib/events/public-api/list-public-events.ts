import { z } from "zod";
import { uuidSchema } from "@/lib/ids/uuid";
import type { Db } from "@/lib/db/doors";
import { appUrl } from "@/lib/config";
import { displayPrice, numericToCents } from "../ticket-pricing";

/** One event of GET /api/v1/public/events (spec 4.14), as answered and as the API reference describes it. */
export const publicEventSchema = z
  .object({
    id: uuidSchema,
    title: z.string().meta({ description: "The website title, else the name (spec 2.7)." }),
    description: z.string().nullable(),
    location: z.string().nullable(),
    start_time: z.iso.datetime().nullable(),
    end_time: z.iso.datetime().nullable(),
    timezone: z.string().meta({ description: "IANA zone of the event." }),
    ticket_price: z
      .number()
      .nullable()
      .meta({ description: "Lowest paid ticket class, in the currency's units." }),
    ticket_class_count: z.int().meta({ description: "Number of paid ticket classes." }),
    display_price: z
      .string()
      .meta({ description: "'Free', '$X' with one paid class, 'From $X' with more, two decimals." }),
    eventbrite_url: z.string().nullable(),
    rsvp_url: z
      .string()
      .nullable()
      .meta({ description: "The hosted RSVP page; null for ticketing-linked events." }),
    capacity: z.int().nullable().meta({ description: "Seats in all; null when the event has no limit." }),
    remaining_seats: z
      .int()
      .nullable()
      .meta({ description: "Seats left (up to a minute old); null when the event has no limit." }),
  })
  .meta({ id: "PublicEvent" });
export type PublicEvent = z.infer<typeof publicEventSchema>;

interface Row {
  id: string;
  title: string;
  description: string | null;
  location: string | null;
  start_time: Date | null;
  end_time: Date | null;
  timezone: string;
  ticket_price: string | null;
  ticket_class_count: number;
  eventbrite_url: string | null;
  external_event_id: string | null;
  capacity: number | null;
  taken: number;
}

/**
 * Spec 4.14: the workspace's published events whose end is later than now, ascending by
 * start. Public fields: the website title and description (falling back to the name and the
 * description, spec 2.7), ticket_class_count and display_price (docs/decisions.md, "The public events API").
 */
export async function listPublicEvents(db: Db, input: { workspaceId: string }): Promise<PublicEvent[]> {
  const rows = await db<Row[]>`
    select id, coalesce(website_title, name) as title, coalesce(website_description, description) as description,
           location, start_time, end_time, timezone, ticket_price, ticket_class_count, eventbrite_url, external_event_id,
           capacity, case when capacity is null then 0 else (
             select count(*)::int from public.event_registrations r where r.event_id = e.id and r.status in ('registered', 'offered')
           ) end as taken
    from public.events e
    where workspace_id = ${input.workspaceId} and is_published and end_time > now()
    order by start_time asc nulls last, id`;
  const base = appUrl();
  return rows.map((e) => ({
    id: e.id,
    title: e.title,
    description: e.description,
    location: e.location,
    start_time: e.start_time?.toISOString() ?? null,
    end_time: e.end_time?.toISOString() ?? null,
    timezone: e.timezone,
    ticket_price: e.ticket_price === null ? null : numericToCents(e.ticket_price)! / 100,
    ticket_class_count: e.ticket_class_count,
    display_price: displayPrice(e.ticket_price, e.ticket_class_count),
    eventbrite_url: e.eventbrite_url,
    rsvp_url: e.external_event_id ? null : `${base}/rsvp/${e.id}`,
    capacity: e.capacity,
    remaining_seats: e.capacity === null ? null : Math.max(0, e.capacity - e.taken),
  }));
}
