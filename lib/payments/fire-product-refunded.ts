import type { Db } from "@/lib/db/doors";
import { fireTrigger } from "@/lib/automations/fire-trigger";

/** Spec 6.2 product_refunded: a fully refunded purchase fires its product's automations for its contact. */
export async function fireProductRefunded(
  db: Db,
  input: {
    workspaceId: string;
    paymentIntentId: string | null;
    row: { id: string; contact_id: string; product_id: string | null; amount_paid: string };
  },
): Promise<void> {
  await fireTrigger(db, {
    workspaceId: input.workspaceId,
    trigger: "product_refunded",
    contactId: input.row.contact_id,
    productId: input.row.product_id ?? undefined,
    payload: {
      transactionId: input.row.id,
      paymentIntentId: input.paymentIntentId,
      amountRefunded: input.row.amount_paid,
    },
  });
}
