// DESIGN section 8: untag.
export { removeTagRoute as DELETE } from "@/lib/api/v1/contacts/handlers";
