"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { memberAction, type ActionContext } from "@/lib/adapters/member-action";
import { AppError, type AppErrorCode } from "@/lib/errors/app-error";
import type { Db } from "@/lib/db/doors";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import { getContactTransactions as feedOf } from "@/lib/payments/get-contact-transactions";
import {
  recordTransactionRefund as recordRefund,
  type RefundResult,
} from "@/lib/payments/record-transaction-refund";
import { revertTransactionRefund as revertRefund } from "@/lib/payments/revert-transaction-refund";
import type { Role } from "@/lib/workspaces/list-memberships";
import { recordRefundForm } from "@/lib/payments/schemas";

// Spec 4.15 recordTransactionRefund, revertTransactionRefund and getContactTransactions for the
// dashboard. The workspace is always the member's current one (the audit row is written there):
// the optional workspaceId of the call shapes must name it, else the transaction is not found.

const TRANSACTION_NOT_FOUND = "Transaction not found.";
const EVERY_ROLE: Role[] = ["owner", "admin", "member"];
const transactionId = uuidField(TRANSACTION_NOT_FOUND);
const workspaceId = z.string().optional();
/** Spec 4.15 names this shape ({success, error?}); the code is added as on every refusal. */
const asResult = (error: AppError): RefundResult & { code?: AppErrorCode } => ({
  success: false,
  error: error.message,
  code: error.code,
});

function workspaceOf(ctx: ActionContext, requested: string | undefined): string {
  if (requested && requested !== ctx.workspaceId) throw new AppError("not_found", TRANSACTION_NOT_FOUND);
  return ctx.workspaceId;
}

/** A refused refund as an AppError, so the transaction rolls back and the caller sees its text. */
function refuseUnless(result: RefundResult): void {
  if (!result.success) throw new AppError("invalid", result.error);
}

/**
 * Records the refund as the service within the member's workspace only: product_refunded
 * automations write rows (automation_runs) that members may not write.
 */
async function recordInWorkspace(
  db: Db,
  input: { transactionId: string; refundAmount: number; runAutomations: boolean; workspaceId?: string },
  ctx: ActionContext,
): Promise<void> {
  refuseUnless(await recordRefund(db, { ...input, workspaceId: workspaceOf(ctx, input.workspaceId) }));
  ctx.audit
    .target("transaction", input.transactionId)
    .change(null, { refundAmount: input.refundAmount, runAutomations: input.runAutomations });
}

async function revertInWorkspace(
  db: Db,
  input: { transactionId: string; workspaceId?: string },
  ctx: ActionContext,
): Promise<void> {
  refuseUnless(
    await revertRefund(db, {
      transactionId: input.transactionId,
      workspaceId: workspaceOf(ctx, input.workspaceId),
    }),
  );
  ctx.audit
    .target("transaction", input.transactionId)
    .change({ status: "refunded" }, { status: "succeeded" });
}

const refundOptions = { door: "service", roles: EVERY_ROLE, after: () => refresh() } as const;

/** Spec 4.15 recordTransactionRefund({ transactionId, refundAmount (dollars), runAutomations }). */
export const recordTransactionRefund = memberAction(
  z.object({
    transactionId,
    refundAmount: z.unknown().optional().transform(Number),
    runAutomations: z
      .unknown()
      .optional()
      .transform((v) => v === true),
    workspaceId,
  }),
  async (db, input, ctx): Promise<RefundResult> => {
    await recordInWorkspace(db, input, ctx);
    return { success: true };
  },
  { ...refundOptions, audit: "transaction.refund_recorded", refusal: asResult },
);

/** Spec 4.15 revertTransactionRefund(transactionId, workspaceId?). */
export const revertTransactionRefund = memberAction(
  z.object({ transactionId, workspaceId }),
  async (db, input, ctx): Promise<RefundResult> => {
    await revertInWorkspace(db, input, ctx);
    return { success: true };
  },
  {
    audit: "transaction.refund_reverted",
    args: ["transactionId", "workspaceId"],
    refusal: asResult,
    after: () => refresh(),
  },
);

/** Spec 4.15 getContactTransactions(contactId, workspaceId?), as the signed-in member (RLS). */
export const getContactTransactions = memberAction(
  z.object({ contactId: uuidField("Contact not found."), workspaceId }),
  async (db, input, ctx) => ({
    data: await feedOf(db, { contactId: input.contactId, workspaceId: workspaceOf(ctx, input.workspaceId) }),
  }),
  {
    audit: false, // reads only
    args: ["contactId", "workspaceId"],
    refusal: () => ({ data: [] }), // a malformed id or another workspace: nothing to show
  },
);

/** The feed's refund form (useActionState); errors go to the dialog's live message. */
export const recordRefundFormAction = memberAction(
  z.looseObject({}),
  async (db, raw, ctx): Promise<FormState> => {
    const parsed = recordRefundForm.safeParse(raw);
    // errors go to the dialog's live message, so they are announced where the member is
    if (!parsed.success) throw new AppError("invalid", Object.values(fieldErrors(parsed.error))[0]);
    await recordInWorkspace(db, parsed.data, ctx);
    return { success: "Refund recorded." };
  },
  { ...refundOptions, audit: "transaction.refund_recorded" },
);

/** The feed's revert button (useActionState), after the member confirmed. */
export const revertRefundFormAction = memberAction(
  z.object({ transactionId: z.unknown().optional(), workspaceId: z.unknown().optional() }),
  async (db, raw, ctx): Promise<FormState> => {
    const input = z.object({ transactionId, workspaceId }).safeParse({
      transactionId: raw.transactionId,
      workspaceId: raw.workspaceId || undefined,
    });
    if (!input.success) throw new AppError("not_found", TRANSACTION_NOT_FOUND);
    await revertInWorkspace(db, input.data, ctx);
    return { success: "Refund reverted." };
  },
  { audit: "transaction.refund_reverted", after: () => refresh() },
);
