import type { ContactRow } from "./contact-row";

export { CONTACT_SOURCES, type ContactSource } from "./contact-row";

/** A contacts row as stored (spec 2.4), with the columns this service adds. */
export type Contact = ContactRow;

export interface TagRef {
  id: string;
  name: string;
  color: string | null;
}

export const DUPLICATE_EMAIL_ERROR = "A contact with this email already exists in this workspace.";
export const CONTACT_NOT_FOUND = "Contact not found.";
