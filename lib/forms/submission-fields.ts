import { refused, type Result } from "@/lib/errors/app-error";
import { z } from "zod";
import { FIELD_LABELS, type PersonField, type PersonFields } from "@/lib/contacts/contact-row";
import type { SubmittedBody } from "@/lib/http/parse-body";

/**
 * The body keys a form submission understands (spec 4.2; docs/decisions.md, "Form body keys and validation"
 * for the names the spec leaves open). The first key present wins. 'name' (a full name) fills first and last
 * name when neither is given. Every other key is kept in the stored payload only.
 */
export const FIELD_KEYS: Record<PersonField, string[]> = {
  first_name: ["first_name", "firstName", "firstname", "fname", "given_name"],
  last_name: ["last_name", "lastName", "lastname", "lname", "surname", "family_name"],
  phone: ["phone", "phone_number", "phoneNumber", "tel", "mobile"],
  address_line1: ["address_line1", "addressLine1", "address"],
  address_line2: ["address_line2", "addressLine2"],
  city: ["city"],
  state: ["state", "region"],
  postal_code: ["postal_code", "postalCode", "zip", "zip_code"],
  country: ["country"],
};
const EMAIL_KEYS = ["email", "email_address", "emailAddress"];
const SUBSCRIBE_KEYS = ["is_subscribed", "isSubscribed"];
const SOURCE_KEYS = ["opt_in_source", "optInSource"];
const NOTE_KEYS = ["notes", "message"];

const MAX_LENGTH: Record<PersonField, number> = {
  first_name: 100,
  last_name: 100,
  phone: 40,
  address_line1: 200,
  address_line2: 200,
  city: 100,
  state: 100,
  postal_code: 20,
  country: 100,
};

export interface SubmissionFields {
  email: string;
  person: PersonFields;
  isSubscribed: boolean;
  optInSource: string | null;
  note: string | null;
}

export type FieldsResult = Result<SubmissionFields>;

/** Spec 4.2 step 5: the honeypot is tripped by any non-empty website_url. */
export function honeypotTripped(body: SubmittedBody): boolean {
  const value = body.website_url;
  if (value === undefined || value === null || value === false) return false;
  return typeof value === "string" ? value.trim() !== "" : true;
}

/** Spec 4.2: truthy is_subscribed values are true, 'true' and 'on'. */
export function isTruthy(value: unknown): boolean {
  if (value === true) return true;
  return typeof value === "string" && ["true", "on"].includes(value.trim().toLowerCase());
}

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const MARKUP = /[<>]/;
const emailSchema = z.email();

class FieldError extends Error {}

function pick(body: SubmittedBody, keys: string[], label: string): string | null {
  for (const key of keys) {
    if (!Object.hasOwn(body, key)) continue;
    const value = body[key];
    if (value === null || value === undefined) continue;
    if (typeof value !== "string") throw new FieldError(`${label} must be text.`);
    return value.trim();
  }
  return null;
}

function checked(value: string | null, label: string, max: number, allowMarkup = false): string | null {
  if (!value) return null;
  if (value.length > max) throw new FieldError(`${label} must be at most ${max} characters.`);
  if (CONTROL.test(value)) throw new FieldError(`${label} contains control characters.`);
  if (!allowMarkup && MARKUP.test(value)) throw new FieldError(`${label} must not contain < or >.`);
  return value;
}

function personFields(body: SubmittedBody): PersonFields {
  const person: PersonFields = {};
  for (const field of Object.keys(FIELD_KEYS) as PersonField[]) {
    const value = pick(body, FIELD_KEYS[field], FIELD_LABELS[field]);
    person[field] = checked(value, FIELD_LABELS[field], MAX_LENGTH[field]) ?? undefined;
  }
  if (field(person, "first_name") || field(person, "last_name")) return person;
  const full = checked(pick(body, ["name", "full_name", "fullName"], "Name"), "Name", 200);
  if (full) {
    const [first, ...rest] = full.split(/\s+/);
    person.first_name = first.slice(0, 100);
    person.last_name = rest.join(" ").slice(0, 100) || undefined;
  }
  return person;
}

const field = (person: PersonFields, key: PersonField) => Boolean(person[key]);

/**
 * Spec 4.2 step 6 and the validation of every field the service writes: email required and
 * valid (trimmed, lowercased), person fields text within their limits and free of markup,
 * note text bounded. Wrong types are refused, never coerced.
 */
export function submissionFields(body: SubmittedBody): FieldsResult {
  try {
    const email = pick(body, EMAIL_KEYS, "Email")?.toLowerCase();
    if (!email) return refused("invalid", "Email is required.", { field: "email" });
    if (email.length > 254 || !emailSchema.safeParse(email).success)
      return refused("invalid", "Email is not a valid email address.", { field: "email" });
    const subscribe = SUBSCRIBE_KEYS.map((k) => body[k]).find((v) => v !== undefined && v !== null);
    if (subscribe !== undefined && typeof subscribe !== "boolean" && typeof subscribe !== "string")
      throw new FieldError("is_subscribed must be true, 'true' or 'on' (or absent).");
    const notes = NOTE_KEYS.map((key) => checked(pick(body, [key], key), key, 10_000, true));
    return {
      data: {
        email,
        person: personFields(body),
        isSubscribed: isTruthy(subscribe),
        optInSource: checked(pick(body, SOURCE_KEYS, "opt_in_source"), "opt_in_source", 200),
        note: notes.filter(Boolean).join("\n\n") || null,
      },
    };
  } catch (error) {
    if (error instanceof FieldError) return refused("invalid", error.message);
    throw error;
  }
}

/**
 * The form body as the API reference describes it (GET /api/openapi.json), built from the same
 * key lists submissionFields reads, so the document cannot name a key the pipeline ignores.
 * Every other key is accepted and kept in the stored payload.
 */
export const formSubmissionBodySchema = z
  .object({
    ...Object.fromEntries(
      EMAIL_KEYS.map((k) => [
        k,
        z
          .email()
          .max(254)
          .optional()
          .meta({ description: "The submitter's email: required, under one of these keys." }),
      ]),
    ),
    ...Object.fromEntries(
      (Object.keys(FIELD_KEYS) as PersonField[]).flatMap((f) =>
        FIELD_KEYS[f].map((k) => [
          k,
          z.string().max(MAX_LENGTH[f]).optional().meta({ description: FIELD_LABELS[f] }),
        ]),
      ),
    ),
    name: z
      .string()
      .max(200)
      .optional()
      .meta({ description: "Full name: fills first and last name when neither is sent." }),
    ...Object.fromEntries(
      SUBSCRIBE_KEYS.map((k) => [
        k,
        z
          .union([z.boolean(), z.string()])
          .optional()
          .meta({ description: "Consent: true, 'true' or 'on' subscribes." }),
      ]),
    ),
    ...Object.fromEntries(SOURCE_KEYS.map((k) => [k, z.string().max(200).optional()])),
    ...Object.fromEntries(
      NOTE_KEYS.map((k) => [
        k,
        z.string().max(10_000).optional().meta({ description: "Added to the contact as a note." }),
      ]),
    ),
    website_url: z
      .string()
      .optional()
      .meta({ description: "Honeypot: leave empty. When filled, the answer is 200 and nothing is stored." }),
  })
  .catchall(z.unknown())
  .meta({ id: "FormSubmission" });
