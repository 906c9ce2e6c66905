"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { ADMIN_ROLES, NotAuthorizedError, requireMember, withMember } from "@/lib/auth/context";
import { signValue } from "@/lib/auth/tokens";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { deauthorizeStripeAccount } from "@/lib/payments/flows/complete-stripe-connection";
import { connectionSettingsForm } from "@/lib/payments/schemas";
import { deletePayprocConnection, savePayprocSettings } from "@/lib/payments/save-payproc-connection";
import {
  STRIPE_CONNECT_PURPOSE,
  stripeConnectAuthorizeUrl,
  stripeConnectConfigured,
} from "@/lib/payments/stripe-connect";

const ADMINS_ONLY = "Only owners and admins can change the payment connection.";

/** Connect (attack 2): to Stripe Connect's authorisation, with a state signed for this member and workspace. */
export async function connectStripeAction(): Promise<void> {
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) redirect("/settings/payments?error=forbidden");
  if (!stripeConnectConfigured()) redirect("/settings/payments?error=not_configured");
  const state = await signValue(STRIPE_CONNECT_PURPOSE, {
    workspaceId: ctx.workspace.workspaceId,
    userId: ctx.userId,
  });
  redirect(stripeConnectAuthorizeUrl(state));
}

/** Spec 2.10: whether purchasers are subscribed. The account itself is never a form field. */
export async function saveConnectionAction(_prev: FormState, form: FormData): Promise<FormState> {
  const values = Object.fromEntries([...form].map(([k, v]) => [k, String(v)]));
  const parsed = connectionSettingsForm.safeParse(values);
  if (!parsed.success) return { errors: fieldErrors(parsed.error), values };
  try {
    const result = await withMember(
      (db, ctx) => savePayprocSettings(db, { workspaceId: ctx.workspace.workspaceId, ...parsed.data }),
      { roles: ADMIN_ROLES },
    );
    if (!result.data.updated) return { message: "Connect a Stripe account first.", values };
  } catch (error) {
    if (error instanceof NotAuthorizedError) return { message: ADMINS_ONLY, values };
    throw error;
  }
  revalidatePath("/settings/payments");
  return { success: "The payment settings are saved.", values };
}

export async function disconnectAction(_prev: FormState, _form: FormData): Promise<FormState> {
  try {
    const accountId = await withMember((db, ctx) => deletePayprocConnection(db, ctx.workspace.workspaceId), {
      roles: ADMIN_ROLES,
    });
    if (accountId) await deauthorizeStripeAccount(accountId);
  } catch (error) {
    if (error instanceof NotAuthorizedError) return { message: ADMINS_ONLY };
    throw error;
  }
  revalidatePath("/settings/payments");
  return { success: "Disconnected. New purchases will no longer be recorded." };
}
