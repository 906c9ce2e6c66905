/** An events row as postgres.js returns it (spec 2.7). */
export interface EventRow {
  id: string;
  workspace_id: string;
  name: string;
  description: string | null;
  location: string | null;
  start_time: Date | null;
  end_time: Date | null;
  timezone: string;
  external_event_id: string | null;
  is_published: boolean;
  website_title: string | null;
  website_description: string | null;
  ticket_price: string | null;
  ticket_class_count: number;
  eventbrite_url: string | null;
  last_synced_at: Date | null;
  /** seats; null = unlimited (docs/decisions.md, "RSVP and capacity") */
  capacity: number | null;
  /** a full event's RSVPs join its waitlist (docs/decisions.md, "A waitlist that fills itself") */
  waitlist_enabled: boolean;
  /** how long a waitlist offer stays claimable */
  offer_hours: number;
  created_at: Date;
  updated_at: Date;
}
