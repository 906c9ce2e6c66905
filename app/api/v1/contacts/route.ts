// DESIGN section 8: the contacts list (spec 4.15 getContacts filters, cursor pages) and create.
export { listContacts as GET, createContactRoute as POST } from "@/lib/api/v1/contacts/handlers";
