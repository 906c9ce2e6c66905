import { apiRoute, ok, pageQuerySchema } from "@/lib/adapters/v1";
import { idParams } from "@/lib/adapters/v1/rest/keyset";
import { listContactTransactions } from "@/lib/adapters/v1/rest/transactions";

/** GET /api/v1/contacts/{id}/transactions (docs/api.md): spec 4.15 getContactTransactions, by cursor. */
export const GET = apiRoute(
  { name: "listContactTransactions", scope: "transactions:read", params: idParams, query: pageQuerySchema },
  async ({ db, workspaceId, params, query }) =>
    ok(await listContactTransactions(db, workspaceId, params.id, query)),
);
