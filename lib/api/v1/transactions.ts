import { z } from "zod";
import { contactExists } from "@/lib/contacts/contact-exists";
import { AppError } from "@/lib/errors/app-error";
import { getContactTransactions, type FeedItem } from "@/lib/payments/get-contact-transactions";
import { centsToNumeric } from "@/lib/payments/money";
import { recordTransactionRefund } from "@/lib/payments/record-transaction-refund";
import { getTransactionBalance } from "@/lib/payments/transaction-balance";
import { bodyErrors, defineOperation, invalid, notFound } from "./define";
import { idParams, keysetAfter, keysetPage, mustExist, timestamp } from "./keyset";
import { listSchema, pageQuerySchema } from "./pagination";
import { created, ok } from "./route";

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

/** GET /api/v1/contacts/{id}/transactions: spec 4.15 getContactTransactions, newest first, by cursor. */
export const listForContact = defineOperation({
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
  errors: [invalid, notFound],
  async handler({ db, workspaceId, params, query: q }) {
    const contactId = params.id;
    mustExist(await contactExists(db, { workspaceId, contactId }));
    const order = "transactions:date:desc";
    const before = keysetAfter(order, q.cursor, "timestamptz");
    const items = await getContactTransactions(db, { workspaceId, contactId, limit: q.limit + 1, before });
    return ok(
      keysetPage(
        order,
        items.map((i) => ({ ...i, sort_key: i.sortKey })),
        q.limit,
        feedItem,
      ),
    );
  },
});

/**
 * POST /api/v1/transactions/{id}/refunds: spec 4.15 recordTransactionRefund through the three-tier
 * engine of spec 3.1, as the dashboard records it and audited as it audits it, with the key as the
 * actor; the refusals as v1 codes: an unknown transaction (or another workspace's) 404, one already
 * fully refunded 409, an amount that is not right 400 on `amount`.
 */
export const refund = defineOperation({
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
    invalid,
    notFound,
    { status: 409, codes: ["conflict", "idempotency_conflict"] },
    ...bodyErrors.slice(1),
  ],
  idempotent: true,
  async handler({ db, workspaceId, params, body, audit }) {
    const transactionId = params.id;
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
    const t = (await getTransactionBalance(db, { workspaceId, transactionId }))!;
    await audit("transaction.refund_recorded", ["transaction", transactionId], {
      after: { refundAmount: Number(body.amount), runAutomations: body.run_automations },
    });
    return created({
      id: t.id,
      contact_id: t.contactId,
      status: t.status,
      currency: t.currency,
      amount_paid: centsToNumeric(t.paidCents),
      amount_refunded: centsToNumeric(t.refundedCents),
      amount_remaining: centsToNumeric(t.remainingCents),
    } satisfies z.output<typeof transactionSchema>);
  },
});
