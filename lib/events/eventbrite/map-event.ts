import { sanitizeRichText } from "@/lib/html/sanitize";
import { cents, isPaidClass, ticketPricing } from "../ticket-pricing";
import { isTimeZone } from "@/lib/time/zones";
import type { EbEvent } from "./types";

/** An events row as the ticketing sync writes it. */
export interface ImportedEvent {
  external_event_id: string;
  name: string;
  description: string | null;
  location: string | null;
  start_time: string;
  end_time: string | null;
  timezone: string;
  eventbrite_url: string | null;
  ticket_price: string | null;
  ticket_class_count: number;
  /** whether Eventbrite lists it (live, started, ended or completed) */
  listed: boolean;
  /** its ticket classes, as the event's ticket types (docs/decisions.md, "Ticket types") */
  ticket_classes: ImportedTicketClass[];
}

/** An Eventbrite ticket class as an event_ticket_types row. */
export interface ImportedTicketClass {
  external_ticket_class_id: string;
  name: string;
  description: string | null;
  price_cents: number;
  sort_order: number;
}

const LISTED = new Set(["live", "started", "ended", "completed"]);

function location(event: EbEvent): string | null {
  if (event.online_event) return "Online";
  const venue = event.venue;
  const parts = [venue?.name, venue?.address?.localized_address_display].filter((p): p is string =>
    Boolean(p?.trim()),
  );
  return parts.length ? parts.join(", ") : null;
}

/** Spec 2.7 and 4.5: an Eventbrite event with its ticket classes as an events row. */
export function mapEvent(event: EbEvent): ImportedEvent {
  const zone = event.start.timezone && isTimeZone(event.start.timezone) ? event.start.timezone : "UTC";
  return {
    external_event_id: String(event.id),
    name: event.name?.text?.trim() || "Untitled event",
    description: sanitizeRichText(event.description?.html ?? event.summary ?? null),
    location: location(event),
    start_time: event.start.utc,
    end_time: event.end?.utc ?? null,
    timezone: zone,
    eventbrite_url: event.url ?? null,
    ...ticketPricing(event.ticket_classes ?? []),
    listed: LISTED.has(event.status ?? "live"),
    ticket_classes: (event.ticket_classes ?? []).map((c, i) => ({
      external_ticket_class_id: String(c.id),
      name: c.name?.trim().slice(0, 200) || "Ticket",
      description: c.description?.trim().slice(0, 2000) || null,
      price_cents: isPaidClass(c) ? cents(c.cost) + cents(c.tax) + cents(c.fee) : 0,
      sort_order: i,
    })),
  };
}
