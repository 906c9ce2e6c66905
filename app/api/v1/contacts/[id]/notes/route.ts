// DESIGN section 8: a note on the contact timeline.
export { addNoteRoute as POST } from "@/lib/api/v1/contacts/handlers";
