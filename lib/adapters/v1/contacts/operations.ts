import { bodyErrors, invalid, notFound, type ApiOperation } from "../operation";

import {
  batchResultSchema,
  batchSchema,
  contactIdParams,
  contactListQuerySchema,
  contactListSchema,
  contactPatchSchema,
  contactSchema,
  contactTagParams,
  contactWriteSchema,
  noteSchema,
  noteWriteSchema,
  subscribeSchema,
  tagListSchema,
  tagNamesSchema,
  contactTopicListSchema,
  topicChoiceSchema,
} from "./schemas";

const body = bodyErrors;
const idem = { status: 409 as const, codes: ["idempotency_conflict"] };

/**
 * The contacts operations of the v1 API (docs/api.md) for the OpenAPI document: the same
 * zod schemas the handlers in ./handlers.ts parse with and answer with.
 */
export const contactsOperations: ApiOperation[] = [
  {
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
  },
  {
    method: "post",
    path: "/api/v1/contacts",
    operationId: "createContact",
    scope: "contacts:write",
    summary: "Create a contact",
    description: "The contact's source is `api`. Consent is given with the subscribe operation, with proof.",
    body: contactWriteSchema,
    success: { status: 201, schema: contactSchema, description: "The new contact." },
    errors: [...body, { status: 409, codes: ["contact_exists", "idempotency_conflict"] }],
    idempotent: true,
  },
  {
    method: "get",
    path: "/api/v1/contacts/{id}",
    operationId: "getContact",
    scope: "contacts:read",
    summary: "Read a contact",
    params: contactIdParams,
    success: { status: 200, schema: contactSchema, description: "The contact." },
    errors: [notFound],
  },
  {
    method: "patch",
    path: "/api/v1/contacts/{id}",
    operationId: "updateContact",
    scope: "contacts:write",
    summary: "Update a contact (spec 4.10)",
    description:
      "The diff-and-audit rule of spec 4.10: changed fields are written, an empty value changes nothing, and " +
      "overwritten values are recorded in a system note naming the key. The source never changes (spec 4.15).",
    params: contactIdParams,
    body: contactPatchSchema,
    success: { status: 200, schema: contactSchema, description: "The contact as stored now." },
    errors: [...body, notFound, { status: 409, codes: ["contact_exists"] }],
  },
  {
    method: "delete",
    path: "/api/v1/contacts/{id}",
    operationId: "deleteContact",
    scope: "contacts:write",
    summary: "Delete a contact",
    params: contactIdParams,
    success: { status: 204, description: "Deleted." },
    errors: [notFound],
  },
  {
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
    errors: [...body, idem],
    idempotent: true,
  },
  {
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
    errors: [...body, idem],
    idempotent: true,
  },
  {
    method: "get",
    path: "/api/v1/contacts/{id}/topics",
    operationId: "getContactTopics",
    scope: "contacts:read",
    summary: "A contact's consent per subscription topic",
    description:
      "Every topic of the workspace, with whether the contact is subscribed to it. `is_subscribed` of the " +
      "contact is on while any topic is on; a workspace without topics answers an empty list.",
    params: contactIdParams,
    success: { status: 200, schema: contactTopicListSchema, description: "The topics." },
    errors: [notFound],
  },
  {
    method: "post",
    path: "/api/v1/contacts/{id}/topics",
    operationId: "setContactTopics",
    scope: "consent:write",
    summary: "Set a contact's subscription topics",
    description:
      "The listed topics (by key) are joined with the proof, as the subscribe operation (refused past a bounce " +
      "or complaint: nothing changes); the others are left; an empty list unsubscribes from everything. One " +
      "consent ledger entry per topic changed. An unknown key refuses the request.",
    params: contactIdParams,
    body: topicChoiceSchema,
    success: { status: 200, schema: contactTopicListSchema, description: "The topics as they are now." },
    errors: [...body, notFound, { status: 409 as const, codes: ["suppressed", "idempotency_conflict"] }],
    idempotent: true,
  },
  {
    method: "post",
    path: "/api/v1/contacts/{id}/tags",
    operationId: "addContactTags",
    scope: "contacts:write",
    summary: "Tag a contact by tag names",
    description: "Missing tags are created (names match case-insensitively). Answers the contact's tags.",
    params: contactIdParams,
    body: tagNamesSchema,
    success: { status: 200, schema: tagListSchema, description: "The contact's tags." },
    errors: [...body, notFound, idem],
    idempotent: true,
  },
  {
    method: "delete",
    path: "/api/v1/contacts/{id}/tags/{tag_id}",
    operationId: "removeContactTag",
    scope: "contacts:write",
    summary: "Untag a contact",
    params: contactTagParams,
    success: { status: 204, description: "The contact no longer has the tag." },
    errors: [notFound],
  },
  {
    method: "post",
    path: "/api/v1/contacts/{id}/notes",
    operationId: "addContactNote",
    scope: "contacts:write",
    summary: "Add a note to a contact's timeline",
    params: contactIdParams,
    body: noteWriteSchema,
    success: { status: 201, schema: noteSchema, description: "The note." },
    errors: [...body, notFound, idem],
    idempotent: true,
  },
  {
    method: "post",
    path: "/api/v1/contacts/{id}/subscribe",
    operationId: "subscribeContact",
    scope: "consent:write",
    summary: "Subscribe a contact, with proof of consent",
    description:
      "As the manual subscribe (spec 4.9, 3.3): `opt_in_source` becomes `API: <proof.source>` and `opt_in_ip` " +
      "the proof's address; recorded in the consent ledger with the key as the actor. A contact with a bounce or " +
      "complaint suppression is 409 `suppressed` and nothing changes.",
    params: contactIdParams,
    body: subscribeSchema,
    success: { status: 200, schema: contactSchema, description: "The contact, subscribed." },
    errors: [...body, notFound, { status: 409, codes: ["suppressed", "idempotency_conflict"] }],
    idempotent: true,
  },
  {
    method: "post",
    path: "/api/v1/contacts/{id}/unsubscribe",
    operationId: "unsubscribeContact",
    scope: "consent:write",
    summary: "Unsubscribe a contact (spec 4.7)",
    description: "Recorded in the consent ledger with the key as the actor; repeating it changes nothing.",
    params: contactIdParams,
    success: { status: 200, schema: contactSchema, description: "The contact, unsubscribed." },
    errors: [notFound, idem],
    idempotent: true,
  },
];
