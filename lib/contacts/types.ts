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

/** The editable fields of a contact, as createContact and updateContact take them (spec 4.15). */
export interface ContactFieldsInput {
  email: string;
  firstName?: string;
  lastName?: string;
  phone?: string;
  addressLine1?: string;
  addressLine2?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  birthMonth?: number;
  birthDay?: number;
}
