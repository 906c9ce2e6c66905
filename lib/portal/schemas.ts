import { z } from "zod";
import { PERSON_FIELDS } from "@/lib/contacts/contact-row";

/** Field limits as the members' contact form has them (lib/contacts/schemas.ts). */
const MAX: Record<(typeof PERSON_FIELDS)[number], number> = {
  first_name: 100,
  last_name: 100,
  phone: 50,
  address_line1: 200,
  address_line2: 200,
  city: 100,
  state: 100,
  postal_code: 20,
  country: 100,
};

/**
 * The portal's details form: the person fields by column name and the address. A value over its
 * limit is refused as a whole (nothing stored) with the field named; the messages are the page's
 * (translated), keyed by the field.
 */
export const portalDetailsSchema = z.object({
  ...(Object.fromEntries(
    PERSON_FIELDS.map((f) => [f, z.string().trim().max(MAX[f]).optional().default("")]),
  ) as Record<(typeof PERSON_FIELDS)[number], z.ZodDefault<z.ZodOptional<z.ZodString>>>),
  email: z.string().trim().toLowerCase().max(254).pipe(z.email()),
});
export type PortalDetails = z.output<typeof portalDetailsSchema>;

/** The sign-in form and the link endpoint's body: `{"email"}` (DESIGN.md section 9). */
export const portalLinkRequestSchema = z.object({
  email: z.string().trim().max(254),
});
