import { z } from "zod";
import { isUuid } from "@/lib/ids/uuid";

const text = (max: number) =>
  z
    .string()
    .nullish()
    .transform((v) => v?.trim() || null)
    .refine((v) => v === null || v.length <= max, `Use at most ${max} characters.`);

/**
 * The RSVP body (docs/decisions.md, "Form body keys and validation"): email, first_name, last_name, phone,
 * is_subscribed, and the camelCase spellings; website_url is the honeypot.
 */
export const rsvpSchema = z
  .object({
    email: z
      .string({ error: "Enter your email address." })
      .trim()
      .toLowerCase()
      .pipe(z.email("Enter a valid email address.").max(254, "Enter a valid email address.")),
    first_name: text(100),
    firstName: text(100),
    last_name: text(100),
    lastName: text(100),
    phone: text(40),
    is_subscribed: z.union([z.boolean(), z.string()]).nullish(),
    // the ticket type (docs/decisions.md, "Ticket types"), and the access code of a hidden one
    ticket_type_id: z
      .string()
      .nullish()
      .transform((v) => v?.trim() || null)
      .refine((v) => v === null || isUuid(v), "Choose one of the ticket types offered."),
    code: text(100),
  })
  .transform((b) => ({
    email: b.email,
    firstName: b.first_name ?? b.firstName,
    lastName: b.last_name ?? b.lastName,
    phone: b.phone,
    ticketTypeId: b.ticket_type_id,
    code: b.code,
    // spec 3.3: truthy is true, 'true' or 'on'
    isSubscribed: b.is_subscribed === true || b.is_subscribed === "true" || b.is_subscribed === "on",
  }));
export type RsvpInput = z.output<typeof rsvpSchema>;
/** What submitRsvp takes: the parsed body, its ticket type and access code optional. */
export type RsvpSubmission = Omit<RsvpInput, "ticketTypeId" | "code"> &
  Partial<Pick<RsvpInput, "ticketTypeId" | "code">>;
