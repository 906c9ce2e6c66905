import { apiRoute, ok } from "@/lib/adapters/v1";
import { eventListQuerySchema, listEvents } from "@/lib/adapters/v1/rest/events";

/** GET /api/v1/events (docs/api.md): spec 4.15 getEvents, unpublished included, by cursor. */
export const GET = apiRoute(
  { name: "listEvents", scope: "events:read", query: eventListQuerySchema },
  async ({ db, workspaceId, query }) => ok(await listEvents(db, workspaceId, query)),
);
