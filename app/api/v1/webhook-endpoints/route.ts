import { apiRoute, created, ok, pageQuerySchema } from "@/lib/adapters/v1";
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
  async ({ db, workspaceId, body, audit }) => {
    const input = endpointInput(body);
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
