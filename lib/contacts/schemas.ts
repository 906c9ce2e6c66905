import { z } from "zod";
import { emailSchema } from "@/lib/auth/schemas";

/** Blank form values mean "not given". */
const blankToUndefined = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

const text = (label: string, max = 200) =>
  z.preprocess(
    blankToUndefined,
    z.string().trim().max(max, `${label} can be at most ${max} characters.`).optional(),
  );

const wholeNumber = (label: string, min: number, max: number) =>
  z.preprocess(
    (value) => {
      const v = blankToUndefined(value);
      return typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : v;
    },
    z
      .number({ error: `${label} must be a whole number from ${min} to ${max}.` })
      .int(`${label} must be a whole number from ${min} to ${max}.`)
      .min(min, `${label} must be a whole number from ${min} to ${max}.`)
      .max(max, `${label} must be a whole number from ${min} to ${max}.`)
      .optional(),
  );

export const BIRTHDAY_PAIR_ERROR = "Enter both the birth month and the birth day, or neither.";

/** The editable fields of a contact (spec 2.4), as createContact and updateContact take them. */
export const contactFieldsSchema = z.object({
  email: emailSchema,
  firstName: text("First name", 100),
  lastName: text("Last name", 100),
  phone: text("Phone", 50),
  addressLine1: text("Address line 1"),
  addressLine2: text("Address line 2"),
  city: text("City", 100),
  state: text("State", 100),
  postalCode: text("Postal code", 20),
  country: text("Country", 100),
  birthMonth: wholeNumber("Birth month", 1, 12),
  birthDay: wholeNumber("Birth day", 1, 31),
});

/** Spec 2.4 / 8.1: birth_month and birth_day are given together or not at all. */
function birthdayPaired(value: { birthMonth?: number; birthDay?: number }, ctx: z.RefinementCtx) {
  if ((value.birthMonth === undefined) !== (value.birthDay === undefined)) {
    ctx.addIssue({
      code: "custom",
      path: [value.birthMonth === undefined ? "birthMonth" : "birthDay"],
      message: BIRTHDAY_PAIR_ERROR,
    });
  }
}

export const createContactSchema = contactFieldsSchema
  .extend({
    isSubscribed: z.preprocess(
      (v) => v === true || v === "true" || v === "on",
      z.boolean().optional().default(false),
    ),
  })
  .superRefine(birthdayPaired);

/** updateContact replaces every editable field: a blank field clears it. */
export const updateContactSchema = contactFieldsSchema.superRefine(birthdayPaired);

export type ContactFields = z.infer<typeof contactFieldsSchema>;
export type CreateContactFields = z.infer<typeof createContactSchema>;

/** The first message of a failed parse, for domain functions that answer `{ error }`. */
export function firstIssue(error: z.ZodError): string {
  return error.issues[0]?.message ?? "The input is not valid.";
}
