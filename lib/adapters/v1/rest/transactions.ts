import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { getContactTransactions, type FeedItem } from "@/lib/payments/get-contact-transactions";
import { centsToNumeric, toCents } from "@/lib/payments/money";
import { recordTransactionRefund } from "@/lib/payments/record-transaction-refund";
import type { ApiOperation } from "../operation";
import { listSchema, pageQuerySchema } from "../pagination";
import { idParams, keysetAfter, keysetPage, timestamp } from "./keyset";

const dollars = (description: string) => z.string().meta({ description: `${description} (dollars).` });

export const feedItemSchema = z
  .object({
    kind: z.enum(["transaction", "event_registration", "deal_payment"]),
    id: z.string(),
    date: timestamp,
    description: z.string(),
    amount: dollars("What was paid"),
    currency: z.string(),
    status: z.string().meta({
      description:
        "transactions: succeeded or refunded; registrations: registered or cancelled; deal payments: paid",
    }),
    refunded: dollars("Refunded so far (transactions)"),
    remaining: dollars("What may still be refunded (transactions)"),
  })
  .meta({ id: "ContactTransaction" });
export const feedListSchema = listSchema(feedItemSchema).meta({ id: "ContactTransactionList" });

export const refundBodySchema = z
  .strictObject({
    amount: z
      .string({ error: 'amount is dollars as text, such as "12.50".' })
      .regex(/^\d{1,9}(\.\d{1,2})?$/, 'amount is dollars as text, such as "12.50".'),
    run_automations: z
      .boolean({ error: "run_automations is true or false." })
      .default(false)
      .meta({ description: "When the refund leaves nothing to refund, fire product_refunded (spec 3.1)." }),
  })
  .meta({ id: "RefundWrite" });

export const transactionSchema = z
  .object({
    id: z.string(),
    contact_id: z.string().nullable(),
    status: z.enum(["succeeded", "refunded"]),
    currency: z.string(),
    amount_paid: dollars("Paid"),
    amount_refunded: dollars("Refunded so far"),
    amount_remaining: dollars("What may still be refunded"),
  })
  .meta({ id: "Transaction" });

const feedItem = (f: FeedItem): z.output<typeof feedItemSchema> => ({
  kind: f.kind,
  id: f.id,
  date: f.date.toISOString(),
  description: f.description,
  amount: centsToNumeric(f.amountCents),
  currency: f.currency,
  status: f.status,
  refunded: centsToNumeric(f.refundedCents),
  remaining: centsToNumeric(f.remainingCents),
});

/** Spec 4.15 getContactTransactions: the contact's feed, newest first, by cursor. */
export async function listContactTransactions(
  db: Db,
  workspaceId: string,
  contactId: string,
  q: z.output<typeof pageQuerySchema>,
): Promise<z.output<typeof feedListSchema>> {
  const [contact] = await db`
    select 1 from public.contacts where id = ${contactId} and workspace_id = ${workspaceId}`;
  if (!contact) throw new AppError("not_found");
  const order = "transactions:date:desc";
  const before = keysetAfter(order, q.cursor, "timestamptz");
  const items = await getContactTransactions(db, { workspaceId, contactId, limit: q.limit + 1, before });
  return keysetPage(
    order,
    items.map((i) => ({ ...i, sort_key: i.sortKey })),
    q.limit,
    feedItem,
  );
}

/**
 * Spec 4.15 recordTransactionRefund through the three-tier engine of spec 3.1, as the dashboard
 * records it; the refusals as v1 codes: an unknown transaction (or another workspace's) 404, one
 * already fully refunded 409, an amount that is not right 400 on `amount`.
 */
export async function refundTransaction(
  db: Db,
  workspaceId: string,
  transactionId: string,
  body: z.output<typeof refundBodySchema>,
): Promise<z.output<typeof transactionSchema>> {
  const result = await recordTransactionRefund(db, {
    workspaceId,
    transactionId,
    refundAmount: Number(body.amount),
    runAutomations: body.run_automations,
  });
  if ("error" in result) {
    if (result.error.code === "not_found") throw new AppError("not_found");
    if (result.error.code === "invalid")
      throw new AppError("invalid", result.error.message, { field: "amount" });
    throw result.error;
  }
  const [row] = await db<
    {
      id: string;
      contact_id: string | null;
      status: "succeeded" | "refunded";
      currency: string;
      amount_paid: string;
      amount_refunded: string;
    }[]
  >`
    select id, contact_id, status, currency, amount_paid::text, amount_refunded::text
    from public.transactions where id = ${transactionId} and workspace_id = ${workspaceId}`;
  const paid = toCents(row.amount_paid);
  const refunded = toCents(row.amount_refunded);
  return {
    id: row.id,
    contact_id: row.contact_id,
    status: row.status,
    currency: row.currency,
    amount_paid: centsToNumeric(paid),
    amount_refunded: centsToNumeric(refunded),
    amount_remaining: centsToNumeric(paid - refunded),
  };
}

export const transactionOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/v1/contacts/{id}/transactions",
    operationId: "listContactTransactions",
    scope: "transactions:read",
    summary: "A contact's transaction feed (spec 4.15 getContactTransactions)",
    description:
      "Transactions, paid event registrations and paid deal payments of the contact, newest first by payment " +
      "or creation date, amounts in dollars.",
    params: idParams,
    query: pageQuerySchema,
    success: { status: 200, schema: feedListSchema, description: "A page of the feed." },
    errors: [
      { status: 400, codes: ["invalid_request"] },
      { status: 404, codes: ["not_found"] },
    ],
  },
  {
    method: "post",
    path: "/api/v1/transactions/{id}/refunds",
    operationId: "refundTransaction",
    scope: "transactions:write",
    summary: "Record a refund (spec 4.15 recordTransactionRefund, spec 3.1)",
    description:
      "Records a partial or full refund by hand, as the dashboard does: in whole cents, never past what remains. " +
      "When nothing remains the transaction is `refunded` and, with `run_automations`, product_refunded fires; " +
      "the payment's open review tasks close once every row of it is refunded. Honours `Idempotency-Key`.",
    params: idParams,
    body: refundBodySchema,
    success: {
      status: 201,
      schema: transactionSchema,
      description: "Recorded: the transaction as it is now.",
    },
    errors: [
      { status: 400, codes: ["invalid_request"] },
      { status: 404, codes: ["not_found"] },
      { status: 409, codes: ["conflict", "idempotency_conflict"] },
      { status: 413, codes: ["too_large"] },
      { status: 415, codes: ["unsupported"] },
    ],
    idempotent: true,
  },
];
