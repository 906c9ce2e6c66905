import { apiRoute, ok } from "@/lib/adapters/v1";
import { idParams } from "@/lib/adapters/v1/rest/keyset";
import { listContactTimeline, timelineQuerySchema } from "@/lib/adapters/v1/rest/timeline";

/** GET /api/v1/contacts/{id}/timeline (docs/api.md): the contact's timeline, by cursor. */
export const GET = apiRoute(
  { name: "listContactTimeline", scope: "contacts:read", params: idParams, query: timelineQuerySchema },
  async ({ db, key, params, query }) => ok(await listContactTimeline(db, key, params.id, query)),
);
