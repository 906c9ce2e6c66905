import { apiRoute, created } from "@/lib/adapters/v1";
import { idParams } from "@/lib/adapters/v1/rest/keyset";
import { refundBodySchema, refundTransaction } from "@/lib/adapters/v1/rest/transactions";

/**
 * POST /api/v1/transactions/{id}/refunds (docs/api.md): spec 4.15 recordTransactionRefund,
 * audited as the dashboard audits it, with the key as the actor.
 */
export const POST = apiRoute(
  {
    name: "refundTransaction",
    scope: "transactions:write",
    params: idParams,
    body: refundBodySchema,
    idempotent: true,
  },
  async ({ db, workspaceId, params, body, audit }) => {
    const transaction = await refundTransaction(db, workspaceId, params.id, body);
    await audit("transaction.refund_recorded", ["transaction", params.id], {
      after: { refundAmount: Number(body.amount), runAutomations: body.run_automations },
    });
    return created(transaction);
  },
);
