import type { z } from "zod";
import { AppError, refuseIf, unwrap } from "@/lib/errors/app-error";
import { logUnexpected } from "@/lib/adapters/log-unexpected";
import { apiSubscribe } from "@/lib/consent/manual-subscribe";
import { unsubscribeContact } from "@/lib/consent/unsubscribe-contact";
import { contactTopicStates } from "@/lib/consent/topics";
import { setTopicsByApi } from "@/lib/consent/topic-consent";
import type { EmailStatus } from "@/lib/consent/email-status";
import type { ContactRow, PersonField } from "@/lib/contacts/contact-row";
import { PERSON_FIELDS } from "@/lib/contacts/contact-row";
import { columnFields } from "@/lib/contacts/contact-columns";
import { createContact } from "@/lib/contacts/create-contact";
import { deleteContact } from "@/lib/contacts/delete-contact";
import { diffContact, writeAuditNote } from "@/lib/contacts/diff-and-audit";
import { editedFields, readEditableFields } from "@/lib/contacts/edited-fields";
import { getContactById } from "@/lib/contacts/get-contact-by-id";
import { getContactsAfter, type ContactsKeyset } from "@/lib/contacts/get-contacts";
import { getSegment } from "@/lib/segments/get-segment";
import { mergeContact } from "@/lib/contacts/merge-contact";
import type { TagRef } from "@/lib/contacts/types";
import { updateContact } from "@/lib/contacts/update-contact";
import type { Db } from "@/lib/db/doors";
import { addContactNote } from "@/lib/notes/add-contact-note";
import { attachTagByName } from "@/lib/tags/attach-tag-by-name";
import { detachTag } from "@/lib/tags/detach-tag";
import {
  listCustomFields,
  validateCustomFieldValues,
  writeCustomFieldValues,
} from "@/lib/contacts/custom-fields";
import {
  customFieldOverwrites,
  customFieldsAuditSummary,
} from "@/lib/contacts/custom-fields/diff-custom-fields";
import type { CustomField, CustomFieldValuesInput } from "@/lib/contacts/custom-fields/types";
import { upsertInChunks } from "@/lib/contacts/batch-upsert";
import { lockContact } from "@/lib/contacts/contact-exists";
import { setContactLocale } from "@/lib/contacts/contact-locale";
import { contactAndTagExist } from "@/lib/tags/contact-tag-exists";
import { bodyErrors, defineOperation, idempotencyConflict, invalid, notFound } from "./define";
import { idParams } from "./keyset";
import { ApiInvalidRequest, apiErrorBody, invalidFromZod } from "./errors";
import type { ApiKeyActor } from "./key-auth";
import { decodeCursor, encodeCursor } from "./pagination";
import { filterScopes, requireScopes } from "./scopes";
import { created, noContent, ok, type ApiContext } from "./route";
import {
  BATCH_ITEMS_PER_UNIT,
  batchResultSchema,
  batchSchema,
  contactListQuerySchema,
  contactListSchema,
  contactPatchSchema,
  contactSchema,
  contactTagParams,
  contactWriteSchema,
  contactTopicListSchema,
  noteSchema,
  noteWriteSchema,
  subscribeSchema,
  tagListSchema,
  tagNamesSchema,
  topicChoiceSchema,
  type ContactPatch,
  type ContactWrite,
} from "./contact-schemas";

type V1Contact = z.output<typeof contactSchema>;

const idem = idempotencyConflict;

const iso = (value: Date | string | null): string | null =>
  value === null ? null : value instanceof Date ? value.toISOString() : new Date(value).toISOString();

/** A contacts row with its tags and status as the v1 contact object (never its consent IP). */
export function v1Contact(row: ContactRow & { tags: TagRef[]; emailStatus: EmailStatus }): V1Contact {
  return {
    id: row.id,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    phone: row.phone,
    address_line1: row.address_line1,
    address_line2: row.address_line2,
    city: row.city,
    state: row.state,
    postal_code: row.postal_code,
    country: row.country,
    birth_month: row.birth_month,
    birth_day: row.birth_day,
    locale: row.locale ?? null,
    source: row.source,
    is_subscribed: row.is_subscribed,
    opt_in_timestamp: iso(row.opt_in_timestamp),
    opt_in_source: row.opt_in_source,
    // no key reads the address a consent came from (docs/decisions.md, "Scopes cover what they label")
    opt_in_ip: null,
    unsubscribed_at: iso(row.unsubscribed_at),
    email_status: row.emailStatus,
    tags: row.tags.map((t) => ({ id: t.id, name: t.name })),
    custom_fields: row.custom_fields ?? {},
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
  };
}

/** The contact as the API shows it, read in the key's workspace (404 for any other). */
async function readContact(db: Db, workspaceId: string, contactId: string): Promise<V1Contact> {
  const details = unwrap(await getContactById(db, { workspaceId, contactId }));
  return v1Contact({ ...details.contact, tags: details.tags, emailStatus: details.emailStatus });
}

/** Who the spec 4.10 audit note names for a write made with a key. */
const via = (key: ApiKeyActor) => `API key "${key.name}"`;

/** The v1 person fields as the PersonFields of the 4.10 writers. */
function personFields(body: ContactPatch): Partial<Record<PersonField, string>> {
  const out: Partial<Record<PersonField, string>> = {};
  for (const field of PERSON_FIELDS) if (body[field]) out[field] = body[field];
  return out;
}

const birthday = (body: ContactPatch) =>
  body.birth_month !== undefined && body.birth_day !== undefined
    ? { birth_month: body.birth_month, birth_day: body.birth_day }
    : {};

/**
 * A write's custom_fields checked against the workspace's definitions (docs/api.md "Custom
 * fields"): the values, or 400 `invalid_request` naming each bad key in `fields` (as the key,
 * and as its body path `custom_fields.<key>`), before anything is stored.
 */
async function checkedCustomFields(
  db: Db,
  workspaceId: string,
  raw: Record<string, unknown> | undefined,
  options: { enforceRequired?: boolean; existing?: ContactRow["custom_fields"] } = {},
): Promise<{ fields: CustomField[]; values: CustomFieldValuesInput }> {
  if (raw === undefined && !options.enforceRequired) return { fields: [], values: {} };
  const fields = await listCustomFields(db, workspaceId);
  const result = validateCustomFieldValues(fields, raw ?? {}, options);
  if ("data" in result) return { fields, values: result.data };
  const problems = (result.error.details?.fields ?? {}) as Record<string, string>;
  const entries = Object.entries(problems).flatMap(([key, message]) => [
    [key, message],
    [`custom_fields.${key}`, message],
  ]);
  throw new ApiInvalidRequest(
    `custom_fields.${result.error.field}: ${result.error.message}`,
    Object.fromEntries(entries),
  );
}

// ---------------------------------------------------------------- GET /api/v1/contacts

export const list = defineOperation({
  method: "get",
  path: "/api/v1/contacts",
  operationId: "listContacts",
  scope: "contacts:read",
  summary: "List contacts",
  description:
    "The filters of spec 4.15 getContacts in snake_case; `tag_ids` and `exclude_tag_ids` repeated or " +
    "comma-separated. Cursor pages: pass `next_cursor` back as `cursor` with the same filters and order; a walk " +
    "returns every contact that existed when it began exactly once. `segment_id` keeps a saved segment's " +
    "contacts only (with the other filters).",
  query: contactListQuerySchema,
  success: { status: 200, schema: contactListSchema, description: "A page of contacts." },
  errors: [invalid, notFound],
  async handler({ db, key, workspaceId, query }) {
    const order = `${query.sort_by}:${query.sort_dir}`;
    const length = { created_at: 2, source: 3, name: 5 }[query.sort_by];
    const after = query.cursor ? (decodeCursor(order, query.cursor, length) as ContactsKeyset) : null;
    const segment = query.segment_id
      ? unwrap(await getSegment(db, { workspaceId, segmentId: query.segment_id }), "segment_id").filter
      : undefined;
    // a filter on another area's data needs its scope (docs/decisions.md, "Scopes cover what they label")
    requireScopes(key, [
      ...(segment ? filterScopes(segment) : []),
      ...(query.event_id ? (["events:read"] as const) : []),
    ]);
    const page = await getContactsAfter(
      db,
      {
        workspaceId,
        pageSize: query.limit,
        search: query.search,
        tagIds: query.tag_ids ?? [],
        tagMode: query.tag_mode,
        excludeTagIds: query.exclude_tag_ids ?? [],
        source: query.source,
        eventId: query.event_id,
        segment,
        sortBy: query.sort_by,
        sortDir: query.sort_dir,
      },
      after,
    );
    if ("error" in page) throw new AppError("invalid", page.error.message, { field: "cursor" });
    return ok({
      data: page.data.map(v1Contact),
      next_cursor: page.next ? encodeCursor(order, page.next) : null,
    });
  },
});

// ---------------------------------------------------------------- POST /api/v1/contacts

export const create = defineOperation({
  method: "post",
  path: "/api/v1/contacts",
  operationId: "createContact",
  scope: "contacts:write",
  summary: "Create a contact",
  description: "The contact's source is `api`. Consent is given with the subscribe operation, with proof.",
  body: contactWriteSchema,
  success: { status: 201, schema: contactSchema, description: "The new contact." },
  errors: [...bodyErrors, { status: 409, codes: ["contact_exists", "idempotency_conflict"] }],
  idempotent: true,
  async handler({ db, workspaceId, body, audit }) {
    const custom = await checkedCustomFields(db, workspaceId, body.custom_fields, { enforceRequired: true });
    const contact = unwrap(
      await createContact(db, {
        workspaceId,
        source: "api",
        email: body.email,
        firstName: body.first_name,
        lastName: body.last_name,
        phone: body.phone,
        addressLine1: body.address_line1,
        addressLine2: body.address_line2,
        city: body.city,
        state: body.state,
        postalCode: body.postal_code,
        country: body.country,
        birthMonth: body.birth_month,
        birthDay: body.birth_day,
      }),
    );
    if (Object.keys(custom.values).length > 0)
      unwrap(await writeCustomFieldValues(db, { workspaceId, contactId: contact.id, values: custom.values }));
    if (body.locale)
      unwrap(await setContactLocale(db, { workspaceId, contactId: contact.id, locale: body.locale }));
    // independent: the audit row and the answer's read leave in one socket write
    const [, answer] = await Promise.all([
      audit("contact.created", ["contact", contact.id], { after: { source: "api" } }),
      readContact(db, workspaceId, contact.id),
    ]);
    return created(answer);
  },
});

// ---------------------------------------------------------------- /api/v1/contacts/{id}

export const get = defineOperation({
  method: "get",
  path: "/api/v1/contacts/{id}",
  operationId: "getContact",
  scope: "contacts:read",
  summary: "Read a contact",
  params: idParams,
  success: { status: 200, schema: contactSchema, description: "The contact." },
  errors: [notFound],
  async handler({ db, workspaceId, params }) {
    return ok(await readContact(db, workspaceId, params.id));
  },
});

/**
 * PATCH: spec 4.10 on the fields given. Changed person fields are written, and overwritten
 * non-empty values get the system note naming the key; an empty value changes nothing. A new
 * email goes through updateContact (spec 4.15: 409 `contact_exists` on a duplicate; bounce
 * suppressions of the old address go). The source is never changed: a key is no signed-in member
 * (spec 4.15 source protection).
 */
export const update = defineOperation({
  method: "patch",
  path: "/api/v1/contacts/{id}",
  operationId: "updateContact",
  scope: "contacts:write",
  summary: "Update a contact (spec 4.10)",
  description:
    "The diff-and-audit rule of spec 4.10: changed fields are written, an empty value changes nothing, and " +
    "overwritten values are recorded in a system note naming the key. The source never changes (spec 4.15).",
  params: idParams,
  body: contactPatchSchema,
  success: { status: 200, schema: contactSchema, description: "The contact as stored now." },
  errors: [...bodyErrors, notFound, { status: 409, codes: ["contact_exists"] }],
  async handler({ db, workspaceId, params, body, key, audit }) {
    if (!(await lockContact(db, { workspaceId, contactId: params.id }))) throw new AppError("not_found");
    const before = (await readEditableFields(db, { workspaceId, contactId: params.id }))!;
    const custom = await checkedCustomFields(db, workspaceId, body.custom_fields);
    const { updates, overwritten } = diffContact(before, personFields(body), "overwrite");
    const next = { ...before, ...updates, ...birthday(body), email: body.email ?? before.email };
    const fields = columnFields(next);
    const changed = editedFields(before, fields);
    const contact = { id: params.id, workspace_id: workspaceId };
    if (changed.length > 0) unwrap(await updateContact(db, { ...fields, workspaceId, contactId: params.id }));
    // the language: given (null clears it) or left as it is (docs/decisions.md, "Recipient languages")
    if (body.locale !== undefined) {
      const language = unwrap(
        await setContactLocale(db, { workspaceId, contactId: params.id, locale: body.locale }),
      );
      if (language.changed) changed.push("locale");
    }
    const values =
      Object.keys(custom.values).length > 0
        ? unwrap(
            await writeCustomFieldValues(db, { workspaceId, contactId: params.id, values: custom.values }),
          )
        : null;
    const replaced = values ? customFieldOverwrites(custom.fields, values) : [];
    await writeAuditNote(db, contact, [...overwritten, ...replaced], via(key));
    const summary =
      values && customFieldsAuditSummary(custom.fields, values.before, values.after, values.changed);
    if (changed.length > 0 || summary) {
      await audit("contact.updated", ["contact", params.id], {
        before: summary ? { custom_fields: summary.before } : undefined,
        after: {
          changed: [...changed, ...(values?.changed ?? []).map((k) => `custom_fields.${k}`)],
          ...(summary ? { custom_fields: summary.after } : {}),
        },
      });
    }
    return ok(await readContact(db, workspaceId, params.id));
  },
});

export const remove = defineOperation({
  method: "delete",
  path: "/api/v1/contacts/{id}",
  operationId: "deleteContact",
  scope: "contacts:write",
  summary: "Delete a contact",
  params: idParams,
  success: { status: 204, description: "Deleted." },
  errors: [notFound],
  async handler({ db, workspaceId, params, audit }) {
    refuseIf(await deleteContact(db, { workspaceId, contactId: params.id }));
    await audit("contact.deleted", ["contact", params.id]);
    return noContent();
  },
});

// ---------------------------------------------------------------- upsert and batch

type AuditCall = Parameters<ApiContext<unknown, unknown, unknown>["audit"]>;

/**
 * One upsert (spec 4.10 by email): a new contact (source 'api'), or the changed fields merged
 * into the existing one with the overwrite note; its source is kept. Answers the audit row it
 * calls for (created, or updated with the names of the overwritten fields, never their values),
 * for the caller to write.
 */
async function upsertOne(
  db: Db,
  ctx: Pick<ApiContext<unknown, unknown, unknown>, "workspaceId" | "key">,
  body: ContactWrite,
): Promise<{ id: string; created: boolean; audit: AuditCall | null }> {
  const custom = await checkedCustomFields(db, ctx.workspaceId, body.custom_fields);
  const result = await mergeContact(db, {
    customFields: custom,
    workspaceId: ctx.workspaceId,
    email: body.email,
    fields: personFields(body),
    source: "api",
    mode: "overwrite",
    extra: { ...birthday(body), ...(body.locale !== undefined ? { locale: body.locale } : {}) },
    via: via(ctx.key),
  });
  const id = result.contact.id;
  const audit: AuditCall | null = result.created
    ? ["contact.created", ["contact", id], { after: { source: "api" } }]
    : result.overwritten.length > 0 ||
        result.customOverwritten.length > 0 ||
        Object.keys(birthday(body)).length > 0
      ? [
          "contact.updated",
          ["contact", id],
          {
            after: {
              changed: [
                ...result.overwritten.map((c) => c.field),
                ...result.customOverwritten.map((c) => `custom_fields.${c.key}`),
              ],
            },
          },
        ]
      : null;
  return { id, created: result.created, audit };
}

export const upsert = defineOperation({
  method: "post",
  path: "/api/v1/contacts/upsert",
  operationId: "upsertContact",
  scope: "contacts:write",
  summary: "Create or merge a contact by email",
  description:
    "201 with a new contact (source `api`), or 200 with the existing one of that email, merged by spec 4.10 " +
    "(its source kept).",
  body: contactWriteSchema,
  success: { status: 200, schema: contactSchema, description: "Merged into the existing contact." },
  alsoSuccess: [{ status: 201, schema: contactSchema, description: "Created." }],
  errors: [...bodyErrors, idem],
  idempotent: true,
  async handler(ctx) {
    const { id, created: isNew, audit } = await upsertOne(ctx.db, ctx, ctx.body);
    if (audit) await ctx.audit(...audit);
    const contact = await readContact(ctx.db, ctx.workspaceId, id);
    return isNew ? created(contact) : ok(contact);
  },
});

/**
 * POST /api/v1/contacts/batch: up to 1,000 upserts, one result per item in order, each atomic
 * on its own: an item that is refused changes nothing and the others go on. The valid items go
 * in chunks of 100 under one savepoint, their statements sent together (postgres.js pipelines
 * what is issued at once; the server runs them in order, so a later item sees an earlier one's
 * contact); when any of a chunk fails, the chunk is rolled back to its savepoint and its items
 * run again one by one, each under a savepoint of its own (lib/contacts/batch-upsert.ts). The audit
 * rows are written together at the end, in the same transaction.
 */
export const batch = defineOperation({
  method: "post",
  path: "/api/v1/contacts/batch",
  operationId: "batchUpsertContacts",
  scope: "contacts:write",
  summary: "Upsert up to 1,000 contacts",
  description:
    "Each item as the upsert operation, on its own: one result per item in order (201, 200, or the item's " +
    "error); a refused item changes nothing and the others go on.",
  body: batchSchema,
  success: { status: 200, schema: batchResultSchema, description: "One result per item." },
  errors: [...bodyErrors, idem],
  idempotent: true,
  units: (body) => Math.max(1, body.contacts.length / BATCH_ITEMS_PER_UNIT),
  async handler(ctx) {
    const data: Record<string, unknown>[] = [];
    const valid: { index: number; body: ContactWrite }[] = [];
    for (const [index, item] of ctx.body.contacts.entries()) {
      const parsed = contactWriteSchema.safeParse(item);
      if (parsed.success) valid.push({ index, body: parsed.data });
      else data[index] = { index, status: 400, ...apiErrorBody(invalidFromZod(parsed.error)) };
    }
    await upsertInChunks(
      ctx.db,
      valid,
      (item) => upsertOne(ctx.db, ctx, item.body),
      async ({ index }, outcome) => {
        if (outcome.ok) {
          const result = outcome.value;
          data[index] = { index, status: result.created ? 201 : 200, id: result.id };
          if (result.audit)
            await ctx.audit(result.audit[0], result.audit[1], result.audit[2], { later: true });
          return;
        }
        const refusal =
          outcome.error instanceof AppError
            ? outcome.error
            : new AppError(
                "internal",
                `Item ${index} failed (reference ${logUnexpected("api v1 batch", outcome.error)}).`,
              );
        data[index] = { index, status: refusal.status, ...apiErrorBody(refusal) };
      },
    );
    return ok({ data });
  },
});

// ---------------------------------------------------------------- topics, tags and notes

async function topicList(db: Db, workspaceId: string, contactId: string) {
  const topics = await contactTopicStates(db, { workspaceId, contactId });
  return topics.map((t) => ({
    id: t.id,
    key: t.key,
    name: t.name,
    subscribed: t.subscribed,
    changed_at: t.changed_at ? new Date(t.changed_at).toISOString() : null,
  }));
}

/**
 * The contact's topics become those named (docs/decisions.md, "Subscription topics"): joined
 * with the caller's proof as the subscribe operation (409 `suppressed` past a bounce or
 * complaint), the others left; an empty list unsubscribes from everything.
 */
export const setTopics = defineOperation({
  method: "post",
  path: "/api/v1/contacts/{id}/topics",
  operationId: "setContactTopics",
  scope: "consent:write",
  summary: "Set a contact's subscription topics",
  description:
    "The listed topics (by key) are joined with the proof, as the subscribe operation (refused past a bounce " +
    "or complaint: nothing changes); the others are left; an empty list unsubscribes from everything. One " +
    "consent ledger entry per topic changed. An unknown key refuses the request.",
  params: idParams,
  body: topicChoiceSchema,
  success: { status: 200, schema: contactTopicListSchema, description: "The topics as they are now." },
  errors: [...bodyErrors, notFound, { status: 409 as const, codes: ["suppressed", "idempotency_conflict"] }],
  idempotent: true,
  async handler({ db, workspaceId, params, body, key, audit }) {
    const { joined, left } = unwrap(
      await setTopicsByApi(db, {
        workspaceId,
        contactId: params.id,
        keys: body.topics,
        source: body.proof.source,
        ip: body.proof.ip,
        actorApiKeyId: key.id,
      }),
    );
    if (joined || left)
      await audit("contact.topics_changed", ["contact", params.id], { after: { topics: body.topics } });
    return ok({ data: await topicList(db, workspaceId, params.id) });
  },
});

/** Every topic of the workspace with the contact's consent to it (docs/decisions.md, "Subscription topics"). */
export const getTopics = defineOperation({
  method: "get",
  path: "/api/v1/contacts/{id}/topics",
  operationId: "getContactTopics",
  scope: "contacts:read",
  summary: "A contact's consent per subscription topic",
  description:
    "Every topic of the workspace, with whether the contact is subscribed to it. `is_subscribed` of the " +
    "contact is on while any topic is on; a workspace without topics answers an empty list.",
  params: idParams,
  success: { status: 200, schema: contactTopicListSchema, description: "The topics." },
  errors: [notFound],
  async handler({ db, workspaceId, params }) {
    await readContact(db, workspaceId, params.id); // 404 for another workspace's contact
    return ok({ data: await topicList(db, workspaceId, params.id) });
  },
});

export const addTags = defineOperation({
  method: "post",
  path: "/api/v1/contacts/{id}/tags",
  operationId: "addContactTags",
  scope: "contacts:write",
  summary: "Tag a contact by tag names",
  description: "Missing tags are created (names match case-insensitively). Answers the contact's tags.",
  params: idParams,
  body: tagNamesSchema,
  success: { status: 200, schema: tagListSchema, description: "The contact's tags." },
  errors: [...bodyErrors, notFound, idem],
  idempotent: true,
  async handler({ db, workspaceId, params, body, audit }) {
    for (const name of [...new Set(body.names)]) {
      const result = await attachTagByName(db, { workspaceId, contactId: params.id, name });
      refuseIf(result);
      if (result.attached)
        await audit("contact.tagged", ["contact", params.id], { after: { tag_id: result.tagId } });
    }
    return ok({ data: (await readContact(db, workspaceId, params.id)).tags });
  },
});

export const removeTag = defineOperation({
  method: "delete",
  path: "/api/v1/contacts/{id}/tags/{tag_id}",
  operationId: "removeContactTag",
  scope: "contacts:write",
  summary: "Untag a contact",
  params: contactTagParams,
  success: { status: 204, description: "The contact no longer has the tag." },
  errors: [notFound],
  async handler({ db, workspaceId, params, audit }) {
    if (!(await contactAndTagExist(db, { workspaceId, contactId: params.id, tagId: params.tag_id })))
      throw new AppError("not_found");
    const { detached } = await detachTag(db, { workspaceId, contactId: params.id, tagId: params.tag_id });
    if (detached)
      await audit("contact.untagged", ["contact", params.id], { after: { tag_id: params.tag_id } });
    return noContent();
  },
});

export const addNote = defineOperation({
  method: "post",
  path: "/api/v1/contacts/{id}/notes",
  operationId: "addContactNote",
  scope: "contacts:write",
  summary: "Add a note to a contact's timeline",
  params: idParams,
  body: noteWriteSchema,
  success: { status: 201, schema: noteSchema, description: "The note." },
  errors: [...bodyErrors, notFound, idem],
  idempotent: true,
  async handler({ db, workspaceId, params, body, audit }) {
    const note = unwrap(
      await addContactNote(db, { workspaceId, contactId: params.id, text: body.text, createdBy: null }),
      "text",
    );
    await audit("contact.note_added", ["contact", params.id], { after: { note_id: note.id } });
    return created({
      id: note.id,
      contact_id: params.id,
      text: note.content_text,
      created_at: iso(note.created_at),
    });
  },
});

// ---------------------------------------------------------------- consent

export const subscribe = defineOperation({
  method: "post",
  path: "/api/v1/contacts/{id}/subscribe",
  operationId: "subscribeContact",
  scope: "consent:write",
  summary: "Subscribe a contact, with proof of consent",
  description:
    "As the manual subscribe (spec 4.9, 3.3): `opt_in_source` becomes `API: <proof.source>` and `opt_in_ip` " +
    "the proof's address; recorded in the consent ledger with the key as the actor. A contact with a bounce or " +
    "complaint suppression is 409 `suppressed` and nothing changes.",
  params: idParams,
  body: subscribeSchema,
  success: { status: 200, schema: contactSchema, description: "The contact, subscribed." },
  errors: [...bodyErrors, notFound, { status: 409, codes: ["suppressed", "idempotency_conflict"] }],
  idempotent: true,
  async handler({ db, workspaceId, params, body, key, audit }) {
    unwrap(
      await apiSubscribe(db, {
        workspaceId,
        contactId: params.id,
        source: body.proof.source,
        ip: body.proof.ip,
        actorApiKeyId: key.id,
      }),
    );
    await audit("contact.subscribed", ["contact", params.id], { after: { flow: "api_subscribe" } });
    return ok(await readContact(db, workspaceId, params.id));
  },
});

export const unsubscribe = defineOperation({
  method: "post",
  path: "/api/v1/contacts/{id}/unsubscribe",
  operationId: "unsubscribeContact",
  scope: "consent:write",
  summary: "Unsubscribe a contact (spec 4.7)",
  description: "Recorded in the consent ledger with the key as the actor; repeating it changes nothing.",
  params: idParams,
  success: { status: 200, schema: contactSchema, description: "The contact, unsubscribed." },
  errors: [notFound, idem],
  idempotent: true,
  async handler({ db, workspaceId, params, key, ip, audit }) {
    const result = await unsubscribeContact(db, {
      workspaceId,
      contactId: params.id,
      flow: "api_unsubscribe",
      ip,
      actorApiKeyId: key.id,
    });
    if ("error" in result) throw result.error;
    if (result.data.changed)
      await audit("contact.unsubscribed", ["contact", params.id], { after: { flow: "api_unsubscribe" } });
    return ok(await readContact(db, workspaceId, params.id));
  },
});
