// DESIGN section 8: create by email (201) or merge by spec 4.10 (200).
export { upsertContactRoute as POST } from "@/lib/api/v1/contacts/handlers";
