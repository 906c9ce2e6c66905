// DESIGN section 8: tag by names (missing tags are created).
export { addTagsRoute as POST } from "@/lib/api/v1/contacts/handlers";
