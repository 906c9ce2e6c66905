import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { createWebhookEndpoint } from "@/lib/webhooks/outbound/create-webhook-endpoint";
import { WEBHOOK_EVENT_TYPES, webhookEventTypeSchema } from "@/lib/webhooks/outbound/event-types";
import {
  listWebhookEndpoints,
  type WebhookEndpointRow,
} from "@/lib/webhooks/outbound/list-webhook-endpoints";
import { webhookEndpointSchema, type WebhookEndpointInput } from "@/lib/webhooks/outbound/schemas";
import { deleteWebhookEndpoint } from "@/lib/webhooks/outbound/update-webhook-endpoint";
import { ApiInvalidRequest, invalidFromZod } from "../errors";
import type { ApiOperation } from "../operation";
import { listSchema, pageQuerySchema } from "../pagination";
import { apiText, idParams, iso, keysetAfter, keysetPage, timestamp } from "./keyset";

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
export function endpointInput(body: z.output<typeof webhookEndpointWriteSchema>): WebhookEndpointInput {
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

export async function createEndpoint(
  db: Db,
  workspaceId: string,
  input: WebhookEndpointInput,
): Promise<z.output<typeof createdWebhookEndpointSchema>> {
  const { data } = await createWebhookEndpoint(db, { ...input, workspaceId });
  const [row] = await listWebhookEndpoints(db, { workspaceId, endpointId: data.id });
  return { ...endpointObject(row), secret: data.secret };
}

export async function listEndpoints(
  db: Db,
  workspaceId: string,
  q: z.output<typeof pageQuerySchema>,
): Promise<z.output<typeof webhookEndpointListSchema>> {
  const order = "webhook-endpoints:created_at:asc";
  const rows = await listWebhookEndpoints(db, {
    workspaceId,
    page: { limit: q.limit, after: keysetAfter(order, q.cursor, "timestamptz") },
  });
  return keysetPage(order, rows, q.limit, endpointObject);
}

export async function deleteEndpoint(db: Db, workspaceId: string, endpointId: string): Promise<void> {
  const result = await deleteWebhookEndpoint(db, { workspaceId, endpointId });
  if ("error" in result) throw new AppError("not_found");
}

export const webhookEndpointOperations: ApiOperation[] = [
  {
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
    errors: [
      { status: 400, codes: ["invalid_request"] },
      { status: 409, codes: ["idempotency_conflict"] },
      { status: 413, codes: ["too_large"] },
      { status: 415, codes: ["unsupported"] },
    ],
    idempotent: true,
  },
  {
    method: "get",
    path: "/api/v1/webhook-endpoints",
    operationId: "listWebhookEndpoints",
    scope: "webhooks:write",
    summary: "List webhook endpoints",
    description: "Oldest first; the secrets are never listed.",
    query: pageQuerySchema,
    success: { status: 200, schema: webhookEndpointListSchema, description: "A page of endpoints." },
    errors: [{ status: 400, codes: ["invalid_request"] }],
  },
  {
    method: "delete",
    path: "/api/v1/webhook-endpoints/{id}",
    operationId: "deleteWebhookEndpoint",
    scope: "webhooks:write",
    summary: "Unsubscribe: delete a webhook endpoint",
    description: "Removes the endpoint and its delivery log.",
    params: idParams,
    success: { status: 204, description: "Deleted." },
    errors: [{ status: 404, codes: ["not_found"] }],
  },
];
