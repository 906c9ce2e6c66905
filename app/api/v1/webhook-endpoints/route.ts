import { apiRoute, created, ok, pageQuerySchema } from "@/lib/adapters/v1";
import { eventTypeScope, requireScopes } from "@/lib/adapters/v1/scopes";
import {
  createEndpoint,
  endpointInput,
  listEndpoints,
  webhookEndpointWriteSchema,
} from "@/lib/adapters/v1/rest/webhook-endpoints";

/** POST /api/v1/webhook-endpoints (docs/api.md): subscribe a URL; audited as Settings → Webhooks does. */
export const POST = apiRoute(
  {
    name: "createWebhookEndpoint",
    scope: "webhooks:write",
    body: webhookEndpointWriteSchema,
    idempotent: true,
  },
  async ({ db, key, workspaceId, body, audit }) => {
    const input = endpointInput(body);
    // an event carries its area's data: a key subscribes only to what its scopes read
    // (docs/decisions.md, "Scopes cover what they label")
    requireScopes(key, input.eventTypes.map(eventTypeScope));
    const endpoint = await createEndpoint(db, workspaceId, input);
    await audit("webhook_endpoint.created", ["webhook_endpoint", endpoint.id], {
      after: { host: new URL(input.url).host, eventTypes: input.eventTypes, enabled: input.enabled },
    });
    return created(endpoint);
  },
);

/** GET /api/v1/webhook-endpoints: the workspace's endpoints, by cursor. */
export const GET = apiRoute(
  { name: "listWebhookEndpoints", scope: "webhooks:write", query: pageQuerySchema },
  async ({ db, workspaceId, query }) => ok(await listEndpoints(db, workspaceId, query)),
);
