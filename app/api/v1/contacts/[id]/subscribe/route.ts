// DESIGN section 8: consent with the caller's proof (spec 4.9, 3.3); 409 suppressed past a bounce or complaint.
export { subscribeRoute as POST } from "@/lib/api/v1/contacts/handlers";
