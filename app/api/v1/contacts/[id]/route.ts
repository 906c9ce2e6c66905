// DESIGN section 8: read, update by spec 4.10, delete.
export {
  getContactRoute as GET,
  patchContactRoute as PATCH,
  deleteContactRoute as DELETE,
} from "@/lib/api/v1/contacts/handlers";
