import { z } from "zod";
import { createWebhookEndpoint } from "@/lib/webhooks/outbound/create-webhook-endpoint";
import { WEBHOOK_EVENT_TYPES, webhookEventTypeSchema } from "@/lib/webhooks/outbound/event-types";
import {
  listWebhookEndpoints,
  type WebhookEndpointRow,
} from "@/lib/webhooks/outbound/list-webhook-endpoints";
import { webhookEndpointSchema, type WebhookEndpointInput } from "@/lib/webhooks/outbound/schemas";
import { deleteWebhookEndpoint } from "@/lib/webhooks/outbound/update-webhook-endpoint";
import { bodyErrors, defineOperation, idempotencyConflict, invalid, notFound } from "./define";
import { ApiInvalidRequest, invalidFromZod } from "./errors";
import { apiText, idParams, iso, keysetList, mustExist, timestamp } from "./keyset";
import { listSchema, pageQuerySchema } from "./pagination";
import { created, noContent, ok } from "./route";
import { eventTypeScope, requireScopes } from "./scopes";

/**
 * Webhook endpoint subscriptions with a key ("REST hooks": a workflow tool subscribes a URL to
 * event types and unsubscribes it again), through the operations of Settings → Webhooks
 * (docs/decisions.md, "Outbound webhooks"): the same URL checks, the secret shown once.
 */
export const webhookEndpointWriteSchema = z
  .strictObject({
    url: apiText("url", 2000),
    event_types: z
      .array(webhookEventTypeSchema, {
        error: `event_types lists some of: ${WEBHOOK_EVENT_TYPES.join(", ")}.`,
      })
      .min(1, "Choose at least one event type.")
      .max(WEBHOOK_EVENT_TYPES.length),
    description: apiText("description", 200).optional(),
    enabled: z.boolean({ error: "enabled is true or false." }).default(true),
  })
  .meta({ id: "WebhookEndpointWrite" });

export const webhookEndpointObjectSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string().nullable(),
    event_types: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    failing_since: timestamp.nullable(),
    disabled_reason: z.string().nullable(),
    created_at: timestamp,
  })
  .meta({ id: "WebhookEndpoint" });

export const createdWebhookEndpointSchema = webhookEndpointObjectSchema
  .extend({
    secret: z.string().meta({
      description: "The Standard Webhooks signing secret (whsec_…): in this answer only, never again.",
    }),
  })
  .meta({ id: "CreatedWebhookEndpoint" });

export const webhookEndpointListSchema = listSchema(webhookEndpointObjectSchema).meta({
  id: "WebhookEndpointList",
});

const endpointObject = (e: WebhookEndpointRow): z.output<typeof webhookEndpointObjectSchema> => ({
  id: e.id,
  url: e.url,
  description: e.description,
  event_types: e.event_types as (typeof WEBHOOK_EVENT_TYPES)[number][],
  enabled: e.enabled,
  failing_since: iso(e.failing_since),
  disabled_reason: e.disabled_reason,
  created_at: e.created_at.toISOString(),
});

/** The body through the dashboard's own schema (a URL that is not a public https address is refused there). */
function endpointInput(body: z.output<typeof webhookEndpointWriteSchema>): WebhookEndpointInput {
  const parsed = webhookEndpointSchema.safeParse({
    url: body.url,
    description: body.description ?? "",
    eventTypes: body.event_types,
    enabled: body.enabled,
  });
  if (!parsed.success) {
    const error = invalidFromZod(parsed.error);
    const fields = Object.fromEntries(
      Object.entries(error.fields).map(([k, v]) => [k.replace(/^eventTypes/, "event_types"), v]),
    );
    throw new ApiInvalidRequest(error.message.replace(/^eventTypes/, "event_types"), fields);
  }
  return parsed.data;
}

/** POST /api/v1/webhook-endpoints: subscribe a URL; audited as Settings → Webhooks does. */
export const create = defineOperation({
  method: "post",
  path: "/api/v1/webhook-endpoints",
  operationId: "createWebhookEndpoint",
  scope: "webhooks:write",
  summary: "Subscribe a URL to outbound events",
  description:
    "The URL must be a public https address. Deliveries are signed per Standard Webhooks with the secret in " +
    "this answer (shown once). Each event type carries its area's data, so the key must hold the read scope of " +
    'every type it subscribes to (docs/api.md, "Scopes and the data they reach"), else 403. Honours `Idempotency-Key`.',
  body: webhookEndpointWriteSchema,
  success: { status: 201, schema: createdWebhookEndpointSchema, description: "Subscribed." },
  errors: [invalid, idempotencyConflict, ...bodyErrors.slice(1)],
  idempotent: true,
  async handler({ db, key, workspaceId, body, audit }) {
    const input = endpointInput(body);
    // an event carries its area's data: a key subscribes only to what its scopes read
    // (docs/decisions.md, "Scopes cover what they label")
    requireScopes(key, input.eventTypes.map(eventTypeScope));
    const { data } = await createWebhookEndpoint(db, { ...input, workspaceId });
    const [row] = await listWebhookEndpoints(db, { workspaceId, endpointId: data.id });
    await audit("webhook_endpoint.created", ["webhook_endpoint", data.id], {
      after: { host: new URL(input.url).host, eventTypes: input.eventTypes, enabled: input.enabled },
    });
    return created({ ...endpointObject(row), secret: data.secret });
  },
});

/** GET /api/v1/webhook-endpoints: the workspace's endpoints, oldest first, by cursor. */
export const list = defineOperation({
  method: "get",
  path: "/api/v1/webhook-endpoints",
  operationId: "listWebhookEndpoints",
  scope: "webhooks:write",
  summary: "List webhook endpoints",
  description: "Oldest first; the secrets are never listed.",
  query: pageQuerySchema,
  success: { status: 200, schema: webhookEndpointListSchema, description: "A page of endpoints." },
  errors: [invalid],
  async handler({ db, workspaceId, query: q }) {
    const read = (page: { limit: number; after: { key: string; id: string } | null }) =>
      listWebhookEndpoints(db, { workspaceId, page });
    return ok(await keysetList("webhook-endpoints:created_at:asc", q, "timestamptz", read, endpointObject));
  },
});

/** DELETE /api/v1/webhook-endpoints/{id}: unsubscribe; audited with the key as the actor. */
export const remove = defineOperation({
  method: "delete",
  path: "/api/v1/webhook-endpoints/{id}",
  operationId: "deleteWebhookEndpoint",
  scope: "webhooks:write",
  summary: "Unsubscribe: delete a webhook endpoint",
  description: "Removes the endpoint and its delivery log.",
  params: idParams,
  success: { status: 204, description: "Deleted." },
  errors: [notFound],
  async handler({ db, workspaceId, params, audit }) {
    mustExist(!("error" in (await deleteWebhookEndpoint(db, { workspaceId, endpointId: params.id }))));
    await audit("webhook_endpoint.deleted", ["webhook_endpoint", params.id]);
    return noContent();
  },
});
