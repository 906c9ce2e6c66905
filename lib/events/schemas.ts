import { z } from "zod";
import { isTimeZone } from "@/lib/time/zones";

const checkbox = z
  .union([z.string(), z.boolean()])
  .nullish()
  .transform((v) => v === true || v === "on" || v === "true" || v === "1");

const optionalText = (max: number, label: string) =>
  z
    .string()
    .max(max, `${label} is too long (at most ${max} characters).`)
    .optional()
    .transform((v) => (v?.trim() ? v.trim() : null));

/** Seats: empty = unlimited; otherwise a whole number from 1 to 1,000,000. */
const capacity = z
  .union([z.string(), z.number()])
  .nullish()
  .transform((v) =>
    v === null || v === undefined || String(v).trim() === "" ? null : Number(String(v).trim()),
  )
  .refine((v) => v === null || (Number.isInteger(v) && v >= 1 && v <= 1_000_000), {
    message: "Capacity is a whole number of seats (at least 1), or empty for unlimited.",
  });

const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** The dashboard's event form (spec 2.7): times are wall-clock times in the event's zone. */
export const eventFormSchema = z
  .object({
    name: z
      .string()
      .trim()
      .min(1, "Name the event.")
      .max(200, "The name is too long (at most 200 characters)."),
    description: optionalText(100_000, "The description"),
    location: optionalText(300, "The location"),
    online: checkbox,
    start: z.string().regex(LOCAL, "Enter the start date and time."),
    end: z.string().regex(LOCAL, "Enter the end date and time."),
    timezone: z.string().refine(isTimeZone, "Choose a time zone."),
    is_published: checkbox,
    website_title: optionalText(200, "The website title"),
    website_description: optionalText(100_000, "The website description"),
    capacity,
    // the waitlist (docs/decisions.md, "A waitlist that fills itself"): off by default; an offer's hours
    waitlist_enabled: checkbox,
    offer_hours: z
      .union([z.string(), z.number()])
      .nullish()
      .transform((v) =>
        v === null || v === undefined || String(v).trim() === "" ? 24 : Number(String(v).trim()),
      )
      .refine((v) => Number.isInteger(v) && v >= 1 && v <= 720, {
        message: "An offer lasts a whole number of hours, from 1 to 720.",
      }),
  })
  .refine((e) => e.end >= e.start, {
    path: ["end"],
    message: "The end must not be before the start.",
  });
export type EventFormInput = z.infer<typeof eventFormSchema>;

/** What a ticketing-linked event lets the workspace change (the rest comes from Eventbrite). */
export const linkedEventFormSchema = z.object({
  is_published: checkbox,
  website_title: optionalText(200, "The website title"),
  website_description: optionalText(100_000, "The website description"),
  capacity,
});
export type LinkedEventFormInput = z.infer<typeof linkedEventFormSchema>;

const tristate = z
  .union([z.boolean(), z.enum(["true", "false", "all", ""])])
  .nullish()
  .catch(null)
  .transform((v) => (v === true || v === "true" ? true : v === false || v === "false" ? false : null));

/** A list's search box: trimmed, at most 200 characters, null when empty or unusable. */
const searchText = z
  .string()
  .max(200)
  .nullish()
  .catch(null)
  .transform((v) => v?.trim() || null);

/** Spec 4.15 getEvents(params). */
export const getEventsSchema = z.object({
  page: z.coerce.number().int().min(1).catch(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(100).catch(25).default(25),
  search: searchText,
  upcoming: tristate,
  published: tristate,
  sortBy: z.enum(["name", "created_at", "start_time"]).catch("start_time").default("start_time"),
  sortDir: z.enum(["asc", "desc"]).catch("asc").default("asc"),
});
export type GetEventsParams = z.input<typeof getEventsSchema>;

/** The event page's registration filters (search and status). */
export const registrationFilterSchema = z.object({
  search: searchText,
  status: z.enum(["registered", "cancelled", "waitlisted", "offered"]).nullish().catch(null),
  /** attendance (docs/decisions.md, "One check-in per registration"): "yes" checked in, "no" not */
  checked_in: z.enum(["yes", "no"]).nullish().catch(null),
});
