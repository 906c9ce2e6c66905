import { apiRoute, ok, pageQuerySchema } from "@/lib/adapters/v1";
import { listSubmissionsPage } from "@/lib/adapters/v1/rest/forms";
import { idParams } from "@/lib/adapters/v1/rest/keyset";

/** GET /api/v1/forms/{id}/submissions (docs/api.md): a form's submissions, by cursor. */
export const GET = apiRoute(
  { name: "listFormSubmissions", scope: "forms:read", params: idParams, query: pageQuerySchema },
  async ({ db, workspaceId, params, query }) =>
    ok(await listSubmissionsPage(db, workspaceId, params.id, query)),
);
