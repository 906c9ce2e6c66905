import type { Money, TicketClassPrice } from "../ticket-pricing";

/** The parts of Eventbrite API v3 objects the service reads. */
export interface EbText {
  text?: string | null;
  html?: string | null;
}

export interface EbDateTime {
  timezone?: string;
  local?: string;
  utc: string;
}

export interface EbTicketClass extends TicketClassPrice {
  id: string;
  name?: string;
  description?: string | null;
}

export interface EbVenue {
  name?: string | null;
  address?: { localized_address_display?: string | null } | null;
}

export interface EbEvent {
  id: string;
  name?: EbText | null;
  description?: EbText | null;
  summary?: string | null;
  url?: string | null;
  start: EbDateTime;
  end?: EbDateTime | null;
  online_event?: boolean;
  status?: string;
  venue?: EbVenue | null;
  ticket_classes?: EbTicketClass[];
}

export interface EbProfile {
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  cell_phone?: string | null;
}

export interface EbAttendee {
  id: string;
  event_id: string;
  order_id?: string;
  profile?: EbProfile | null;
  costs?: { gross?: Money | null } | null;
  cancelled?: boolean;
  refunded?: boolean;
  /** scanned or marked at the door (Eventbrite's check-in) */
  checked_in?: boolean;
  status?: string;
  /** the ticket class the attendee holds */
  ticket_class_id?: string | null;
  /** with expand=order */
  order?: EbOrder | null;
}

export interface EbOrder {
  id: string;
  event_id: string;
  email?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  status?: string;
  /** with expand=attendees */
  attendees?: EbAttendee[];
}

export interface EbOrganization {
  id: string;
  name?: string | null;
}

export interface EbWebhook {
  id: string;
  endpoint_url?: string;
  actions?: string;
}

export interface EbPagination {
  has_more_items?: boolean;
  continuation?: string;
}

/** What Eventbrite POSTs to the webhook endpoint: no signature, only a pointer to the object. */
export interface EbWebhookDelivery {
  api_url: string;
  config: { action: string; webhook_id: string; user_id?: string; endpoint_url?: string };
}

export const TICKETING_ACTIONS = ["order.placed", "order.refunded", "attendee.updated"] as const;
export type TicketingAction = (typeof TICKETING_ACTIONS)[number];
