import { apiRoute, ok, pageQuerySchema } from "@/lib/adapters/v1";
import { listFormsPage } from "@/lib/adapters/v1/rest/forms";

/** GET /api/v1/forms (docs/api.md): the forms page's list, by cursor. */
export const GET = apiRoute(
  { name: "listForms", scope: "forms:read", query: pageQuerySchema },
  async ({ db, workspaceId, query }) => ok(await listFormsPage(db, workspaceId, query)),
);
