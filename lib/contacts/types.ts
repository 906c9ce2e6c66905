/** A contacts row as stored (spec 2.4), with the columns this service adds. */
export interface Contact {
  id: string;
  workspace_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  phone: string | null;
  source: string;
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  birth_month: number | null;
  birth_day: number | null;
  is_subscribed: boolean;
  opt_in_timestamp: Date | null;
  opt_in_source: string | null;
  opt_in_ip: string | null;
  unsubscribed_at: Date | null;
  assigned_user_id: string | null;
  portal_token: string | null;
  created_by: string | null;
  updated_by: string | null;
  created_at: Date;
  updated_at: Date;
}

export interface TagRef {
  id: string;
  name: string;
  color: string | null;
}

/** Spec 2.4.1, plus 'event' (set by the RSVP endpoint). */
export const CONTACT_SOURCES = ["manual", "form", "import", "ticketing", "payproc", "event"] as const;
export type ContactSource = (typeof CONTACT_SOURCES)[number];

export const DUPLICATE_EMAIL_ERROR = "A contact with this email already exists in this workspace.";
export const CONTACT_NOT_FOUND = "Contact not found.";
