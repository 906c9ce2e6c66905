import { apiRoute, noContent } from "@/lib/adapters/v1";
import { idParams } from "@/lib/adapters/v1/rest/keyset";
import { deleteEndpoint } from "@/lib/adapters/v1/rest/webhook-endpoints";

/** DELETE /api/v1/webhook-endpoints/{id} (docs/api.md): unsubscribe; audited with the key as the actor. */
export const DELETE = apiRoute(
  { name: "deleteWebhookEndpoint", scope: "webhooks:write", params: idParams },
  async ({ db, workspaceId, params, audit }) => {
    await deleteEndpoint(db, workspaceId, params.id);
    await audit("webhook_endpoint.deleted", ["webhook_endpoint", params.id]);
    return noContent();
  },
);
