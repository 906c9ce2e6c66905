// DESIGN section 8: up to 1,000 upserts, one result per item, atomic per item.
export { batchContactsRoute as POST } from "@/lib/api/v1/contacts/handlers";
