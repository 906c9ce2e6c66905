import { z } from "zod";
import { emailSchema } from "@/lib/auth/schemas";
import { SORT_FIELDS } from "@/lib/contacts/get-contacts-params";
import { uuidSchema } from "@/lib/ids/uuid";
import { idParams } from "./keyset";
import { NOTE_MAX_LENGTH } from "@/lib/notes/add-note";
import { tagNameSchema } from "@/lib/tags/tag-schemas";
import { contactLocaleSchema } from "@/lib/contacts/contact-locale";
import { listSchema, pageQuerySchema } from "./pagination";

/** A query id: anything but a uuid is 400 (a path's is 404: idParams). */
const idSchema = uuidSchema;

/** `{id}` and `{tag_id}` of /api/v1/contacts/{id}/tags/{tag_id}. */
export const contactTagParams = idParams.extend({ tag_id: idParams.shape.id });

const text = (label: string, max: number) =>
  z
    .string({ error: `${label} must be text.` })
    .trim()
    .max(max, `${label} can be at most ${max} characters.`);
const whole = (label: string, min: number, max: number) =>
  z
    .number({ error: `${label} must be a whole number from ${min} to ${max}.` })
    .int(`${label} must be a whole number from ${min} to ${max}.`)
    .min(min, `${label} must be a whole number from ${min} to ${max}.`)
    .max(max, `${label} must be a whole number from ${min} to ${max}.`);

/** A custom field value as the API carries it (docs/api.md "Custom fields"). */
const customFieldValue = z
  .union([z.string(), z.number(), z.boolean(), z.array(z.string())])
  .meta({ description: "text, select and date ('YYYY-MM-DD') as strings, multi select as a list" });

/**
 * A write's custom field values by key: checked against the workspace's definitions in the
 * handler (a wrong type, an unknown option or an unknown key is 400 `invalid_request` with the
 * key in `fields`, and nothing is stored); null clears a value.
 */
const customFieldsWrite = z
  .record(z.string(), z.unknown().meta({ description: "the field's value, or null to clear it" }))
  .meta({ id: "CustomFieldValuesWrite", description: '{"<key>": value}; null clears the value' })
  .optional();

/** The person fields of a v1 contact write, snake_case as the columns (spec 2.4). */
const fieldShape = {
  first_name: text("first_name", 100).optional(),
  last_name: text("last_name", 100).optional(),
  phone: text("phone", 50).optional(),
  address_line1: text("address_line1", 200).optional(),
  address_line2: text("address_line2", 200).optional(),
  city: text("city", 100).optional(),
  state: text("state", 100).optional(),
  postal_code: text("postal_code", 20).optional(),
  country: text("country", 100).optional(),
  birth_month: whole("birth_month", 1, 12).optional(),
  birth_day: whole("birth_day", 1, 31).optional(),
  locale: contactLocaleSchema.optional().meta({
    description:
      "The contact's language, a BCP 47 tag ('fr', 'de-AT'), stored canonical; null clears it. Recipient pages and system emails use it (docs/api.md, \"Languages\").",
  }),
  custom_fields: customFieldsWrite,
};

/** Spec 2.4 / 8.1: birth_month and birth_day together or not at all. */
function birthdayPaired(value: { birth_month?: number; birth_day?: number }, ctx: z.RefinementCtx) {
  if ((value.birth_month === undefined) !== (value.birth_day === undefined))
    ctx.addIssue({
      code: "custom",
      path: [value.birth_month === undefined ? "birth_month" : "birth_day"],
      message: "Give both birth_month and birth_day, or neither.",
    });
}

/** POST /api/v1/contacts and each upsert: a contact with its email (unknown keys are refused). */
export const contactWriteSchema = z
  .strictObject({ email: emailSchema, ...fieldShape })
  .superRefine(birthdayPaired)
  .meta({ id: "ContactWrite" });

/** PATCH /api/v1/contacts/{id}: any of the fields; empty values change nothing (spec 4.10). */
export const contactPatchSchema = z
  .strictObject({ email: emailSchema.optional(), ...fieldShape })
  .superRefine(birthdayPaired)
  .meta({ id: "ContactPatch" });

export type ContactWrite = z.output<typeof contactWriteSchema>;
export type ContactPatch = z.output<typeof contactPatchSchema>;

/** A list parameter given repeated (`?tag_ids=a&tag_ids=b`) or comma-separated (`?tag_ids=a,b`). */
const idList = z
  .preprocess(
    (value) =>
      (Array.isArray(value) ? value : typeof value === "string" ? [value] : [])
        .flatMap((v) => String(v).split(","))
        .map((v) => v.trim())
        .filter(Boolean),
    z.array(idSchema).max(50, "At most 50 tags per filter."),
  )
  .optional();

/** GET /api/v1/contacts: the filters of spec 4.15 getContacts in snake_case, and the page. */
export const contactListQuerySchema = pageQuerySchema.extend({
  search: z.string().trim().max(200, "search can be at most 200 characters.").optional(),
  tag_ids: idList,
  tag_mode: z.enum(["any", "all"]).default("any"),
  exclude_tag_ids: idList,
  source: z.string().trim().max(100).optional(),
  event_id: idSchema.optional(),
  segment_id: idSchema.optional().meta({
    description: "a saved segment of the workspace: only its contacts (404 `not_found` for any other id)",
  }),
  sort_by: z.enum(SORT_FIELDS).default("created_at"),
  sort_dir: z.enum(["asc", "desc"]).default("desc"),
});

export const tagSchema = z.object({ id: z.string(), name: z.string() }).meta({ id: "Tag" });

/** The v1 contact object. */
export const contactSchema = z
  .object({
    id: z.string().meta({ description: "uuid" }),
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    phone: z.string().nullable(),
    address_line1: z.string().nullable(),
    address_line2: z.string().nullable(),
    city: z.string().nullable(),
    state: z.string().nullable(),
    postal_code: z.string().nullable(),
    country: z.string().nullable(),
    birth_month: z.number().int().nullable(),
    birth_day: z.number().int().nullable(),
    locale: z
      .string()
      .nullable()
      .meta({ description: "The contact's language (BCP 47), or null when unknown." }),
    source: z.string().meta({ description: "How the contact came in; 'api' when created with a key." }),
    is_subscribed: z.boolean(),
    opt_in_timestamp: z.string().nullable(),
    opt_in_source: z.string().nullable(),
    opt_in_ip: z.string().nullable().meta({
      description:
        'Always null: no key reads the address a consent came from (docs/api.md, "Scopes and the data they reach"). Kept for compatibility.',
    }),
    unsubscribed_at: z.string().nullable(),
    email_status: z.enum(["Spam", "Bounced", "Unsubscribed", "Subscribed", "Not Opted In"]),
    tags: z.array(tagSchema),
    custom_fields: z
      .record(z.string(), customFieldValue)
      .meta({ id: "CustomFieldValues", description: "the workspace's custom field values by key" }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "Contact" });

export const contactListSchema = listSchema(contactSchema).meta({ id: "ContactList" });

export const tagNamesSchema = z
  .strictObject({
    names: z.array(tagNameSchema).min(1, "Name at least one tag.").max(50, "At most 50 tags at once."),
  })
  .meta({ id: "TagNames" });
export const tagListSchema = z.object({ data: z.array(tagSchema) }).meta({ id: "TagList" });

/** A contact's consent to one subscription topic (docs/decisions.md, "Subscription topics"). */
export const contactTopicSchema = z
  .object({
    id: z.string().meta({ description: "uuid of the topic" }),
    key: z.string(),
    name: z.string(),
    subscribed: z.boolean(),
    changed_at: z.string().nullable().meta({ description: "ISO 8601; null: never changed (never joined)" }),
  })
  .meta({ id: "ContactTopic" });
export const contactTopicListSchema = z
  .object({ data: z.array(contactTopicSchema) })
  .meta({ id: "ContactTopicList" });

export const noteWriteSchema = z
  .strictObject({
    text: z
      .string({ error: "Write the note's text." })
      .trim()
      .min(1, "Write something in the note.")
      .max(NOTE_MAX_LENGTH, `A note can be at most ${NOTE_MAX_LENGTH} characters.`),
  })
  .meta({ id: "NoteWrite" });
export const noteSchema = z
  .object({ id: z.string(), contact_id: z.string(), text: z.string(), created_at: z.string() })
  .meta({ id: "Note" });

export const subscribeSchema = z
  .strictObject({
    proof: z.strictObject({
      source: z
        .string({ error: "Say where the consent was given." })
        .trim()
        .min(1, "Say where the consent was given.")
        .max(200, "proof.source can be at most 200 characters."),
      ip: z.union([z.ipv4(), z.ipv6()], { error: "proof.ip must be an IPv4 or IPv6 address." }),
    }),
  })
  .meta({ id: "SubscribeProof" });

/** PUT /api/v1/contacts/{id}/topics: the contact's topics by key, with the subscribe operation's proof. */
export const topicChoiceSchema = z
  .strictObject({
    topics: z
      .array(z.string().trim().toLowerCase().max(50), { error: "topics must be a list of topic keys." })
      .max(100, "At most 100 topics."),
    proof: subscribeSchema.shape.proof,
  })
  .meta({ id: "ContactTopicChoice" });

/** POST /api/v1/contacts/batch: up to 1,000 upserts; each item is checked on its own. */
export const BATCH_MAX = 1000;
/** A batch uses one unit of the key's rate limit per this many items (docs/decisions.md, "The rate limit counts items"). */
export const BATCH_ITEMS_PER_UNIT = 10;
export const batchSchema = z
  .strictObject({
    contacts: z
      .array(z.unknown().meta({ description: "A ContactWrite; an invalid item is refused alone." }))
      .min(1, "Send at least one contact.")
      .max(BATCH_MAX, `At most ${BATCH_MAX} contacts per request.`),
  })
  .meta({ id: "ContactBatch" });

const itemError = z.object({
  code: z.string(),
  message: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
export const batchResultSchema = z
  .object({
    data: z.array(
      z.object({
        index: z.number().int(),
        status: z.number().int().meta({ description: "201 created, 200 merged, or the item's error status" }),
        id: z.string().optional(),
        error: itemError.optional(),
      }),
    ),
  })
  .meta({ id: "ContactBatchResult" });
