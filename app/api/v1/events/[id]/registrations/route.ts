import { apiRoute, ok } from "@/lib/adapters/v1";
import { idParams } from "@/lib/adapters/v1/rest/keyset";
import { listRegistrations, registrationQuerySchema } from "@/lib/adapters/v1/rest/events";

/** GET /api/v1/events/{id}/registrations (docs/api.md): the event page's list, by cursor. */
export const GET = apiRoute(
  { name: "listEventRegistrations", scope: "events:read", params: idParams, query: registrationQuerySchema },
  async ({ db, workspaceId, params, query }) =>
    ok(await listRegistrations(db, workspaceId, params.id, query)),
);
