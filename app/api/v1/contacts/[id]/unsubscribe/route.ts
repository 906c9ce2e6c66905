// DESIGN section 8: unsubscribe as spec 4.7.
export { unsubscribeRoute as POST } from "@/lib/api/v1/contacts/handlers";
