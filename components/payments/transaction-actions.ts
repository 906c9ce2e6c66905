"use server";

import { refresh } from "next/cache";
import { requireMember, type MemberContext } from "@/lib/auth/context";
import { withService, withUser } from "@/lib/db/doors";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { getContactTransactions as feedOf, type FeedItem } from "@/lib/payments/get-contact-transactions";
import {
  recordTransactionRefund as recordRefund,
  type RefundResult,
} from "@/lib/payments/record-transaction-refund";
import { revertTransactionRefund as revertRefund } from "@/lib/payments/revert-transaction-refund";
import { recordRefundForm } from "@/lib/payments/schemas";
import { isUuid } from "@/lib/ids/uuid";

const NOT_FOUND: RefundResult = { success: false, error: "Transaction not found." };

/** The workspace asked for, when the member belongs to it; else their current one. */
function workspaceOf(ctx: MemberContext, requested?: string | null): string {
  return ctx.memberships.some((m) => m.workspaceId === requested) ? requested! : ctx.workspace.workspaceId;
}

/**
 * Spec 4.15 recordTransactionRefund. The member's workspace is resolved on the server; the
 * refund runs as the service within that workspace only, because product_refunded
 * automations write rows (automation_runs) that members may not write.
 */
export async function recordTransactionRefund(input: {
  transactionId: string;
  refundAmount: number;
  runAutomations: boolean;
  workspaceId?: string;
}): Promise<RefundResult> {
  const ctx = await requireMember();
  if (!isUuid(input.transactionId)) return NOT_FOUND;
  const workspaceId = workspaceOf(ctx, input.workspaceId);
  const result = await withService((db) =>
    recordRefund(db, {
      workspaceId,
      transactionId: input.transactionId,
      refundAmount: Number(input.refundAmount),
      runAutomations: input.runAutomations === true,
    }),
  );
  if (result.success) refresh();
  return result;
}

/** Spec 4.15 revertTransactionRefund. */
export async function revertTransactionRefund(
  transactionId: string,
  workspaceId?: string,
): Promise<RefundResult> {
  const ctx = await requireMember();
  if (!isUuid(transactionId)) return NOT_FOUND;
  const result = await withUser(ctx.claims, (db) =>
    revertRefund(db, { transactionId, workspaceId: workspaceOf(ctx, workspaceId) }),
  );
  if (result.success) refresh();
  return result;
}

/** Spec 4.15 getContactTransactions, as the signed-in member (RLS). */
export async function getContactTransactions(
  contactId: string,
  workspaceId?: string,
): Promise<{ data: FeedItem[] }> {
  const ctx = await requireMember();
  if (!isUuid(contactId)) return { data: [] };
  const data = await withUser(ctx.claims, (db) =>
    feedOf(db, { contactId, workspaceId: workspaceOf(ctx, workspaceId) }),
  );
  return { data };
}

/** The feed's refund form (useActionState). */
export async function recordRefundFormAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
  const parsed = recordRefundForm.safeParse(values);
  // errors go to the dialog's live message, so they are announced where the member is
  if (!parsed.success) return { message: Object.values(fieldErrors(parsed.error))[0], values };
  const result = await recordTransactionRefund(parsed.data);
  if (!result.success) return { message: result.error, values };
  return { success: "Refund recorded." };
}

/** The feed's revert button (useActionState), after the member confirmed. */
export async function revertRefundFormAction(_prev: FormState, form: FormData): Promise<FormState> {
  const transactionId = String(form.get("transactionId") ?? "");
  const workspaceId = String(form.get("workspaceId") ?? "");
  const result = await revertTransactionRefund(transactionId, workspaceId || undefined);
  return result.success ? { success: "Refund reverted." } : { message: result.error };
}
