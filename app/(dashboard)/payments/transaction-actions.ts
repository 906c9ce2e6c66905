"use server";

import { refresh } from "next/cache";
import { z } from "zod";
import { memberAction, type ActionContext } from "@/lib/adapters/member-action";
import { AppError } from "@/lib/errors/app-error";
import type { Db } from "@/lib/db/doors";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { uuidField } from "@/lib/ids/uuid";
import {
  recordTransactionRefund as recordRefund,
  type RefundResult,
} from "@/lib/payments/record-transaction-refund";
import { revertTransactionRefund as revertRefund } from "@/lib/payments/revert-transaction-refund";
import type { Role } from "@/lib/workspaces/list-memberships";
import { recordRefundForm } from "@/lib/payments/schemas";

// Spec 4.15 recordTransactionRefund and revertTransactionRefund for the dashboard's transactions
// feed (the contact page reads the feed itself). The workspace is always the member's current one
// (the audit row is written there): a workspaceId the form sends must name it, else the
// transaction is not found.

const TRANSACTION_NOT_FOUND = "Transaction not found.";
const EVERY_ROLE: Role[] = ["owner", "admin", "member"];
const transactionId = uuidField(TRANSACTION_NOT_FOUND);
const workspaceId = z.string().optional();

function workspaceOf(ctx: ActionContext, requested: string | undefined): string {
  if (requested && requested !== ctx.workspaceId) throw new AppError("not_found", TRANSACTION_NOT_FOUND);
  return ctx.workspaceId;
}

/** A refused refund thrown, so the transaction rolls back and the caller sees its text and code. */
function refuseUnless(result: RefundResult): void {
  if ("error" in result) throw result.error;
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
