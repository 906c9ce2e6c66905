import * as broadcasts from "./broadcasts";
import * as campaigns from "./campaigns";
import * as contacts from "./contacts";
import type { AnyApiOperation } from "./define";
import * as events from "./events";
import * as forms from "./forms";
import * as segments from "./segments";
import * as subscriptions from "./subscriptions";
import * as timeline from "./timeline";
import * as transactions from "./transactions";
import * as webhookEndpoints from "./webhook-endpoints";

/**
 * The REST API v1 (docs/api.md): every operation, each declared once in its area's module
 * (lib/api/v1/<area>.ts) and mounted in its route file with apiRoute, grouped by the OpenAPI tag
 * of its area. The OpenAPI document
 * (lib/openapi), the typed client (`npm run api:client`) and the attack, scope and fuzz tests all
 * read this list; tests/unit/api-v1-operations.test.ts checks each one against its route file.
 */
export const V1_AREAS: readonly { tag: string; operations: readonly AnyApiOperation[] }[] = [
  {
    tag: "Contacts",
    operations: [
      contacts.list,
      contacts.create,
      contacts.get,
      contacts.update,
      contacts.remove,
      contacts.upsert,
      contacts.batch,
      contacts.getTopics,
      contacts.setTopics,
      contacts.addTags,
      contacts.removeTag,
      contacts.addNote,
      contacts.subscribe,
      contacts.unsubscribe,
      timeline.list,
    ],
  },
  {
    tag: "Events",
    operations: [events.list, events.listRegistrations, events.listPublic, events.checkIn, events.ticketKey],
  },
  { tag: "Transactions", operations: [transactions.listForContact, transactions.refund] },
  { tag: "Subscriptions", operations: [subscriptions.listForContact, subscriptions.list] },
  { tag: "Forms", operations: [forms.list, forms.listSubmissions] },
  {
    tag: "Webhook endpoints",
    operations: [webhookEndpoints.create, webhookEndpoints.list, webhookEndpoints.remove],
  },
  { tag: "Broadcasts", operations: [broadcasts.create, broadcasts.get, broadcasts.send, broadcasts.cancel] },
  {
    tag: "Campaigns",
    operations: [
      campaigns.list,
      campaigns.create,
      campaigns.get,
      campaigns.update,
      campaigns.publish,
      campaigns.enroll,
      campaigns.listEnrollmentsOp,
    ],
  },
  {
    tag: "Segments",
    operations: [
      segments.list,
      segments.create,
      segments.get,
      segments.update,
      segments.remove,
      segments.count,
    ],
  },
];

/** Every v1 operation, in the document's order. */
export const V1_OPERATIONS: readonly AnyApiOperation[] = V1_AREAS.flatMap((area) => area.operations);

/** The OpenAPI tag of an operation: its area's. */
export const v1TagOf = (operation: AnyApiOperation): string =>
  V1_AREAS.find((area) => area.operations.includes(operation))?.tag ?? "REST API v1";

export { apiRoute } from "./route";
export type { AnyApiOperation, ApiOperation } from "./define";
