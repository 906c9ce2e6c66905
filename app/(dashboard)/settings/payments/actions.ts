"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { signValue } from "@/lib/auth/tokens";
import { AppError } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { deauthorizeStripeAccount } from "@/lib/payments/flows/complete-stripe-connection";
import { connectionSettingsForm } from "@/lib/payments/schemas";
import { deletePayprocConnection, savePayprocSettings } from "@/lib/payments/save-payproc-connection";
import {
  STRIPE_CONNECT_PURPOSE,
  stripeConnectAuthorizeUrl,
  stripeConnectConfigured,
} from "@/lib/payments/stripe-connect";

const admins = {
  roles: ADMIN_ROLES,
  forbidden: "Only owners and admins can change the payment connection.",
} as const;
const refresh = () => revalidatePath("/settings/payments");

/**
 * Connect (docs/decisions.md, "Stripe Connect"): to Stripe Connect's authorisation, with a state signed for
 * this member and workspace. Audit: none here, nothing changes until the callback saves Stripe's answer
 * (connection.payments_connected).
 */
export const connectStripeAction = memberAction(
  z.object({}),
  async (_db, _input, ctx) => {
    if (!ADMIN_ROLES.includes(ctx.workspace.role)) return { to: "/settings/payments?error=forbidden" };
    if (!stripeConnectConfigured()) return { to: "/settings/payments?error=unavailable" };
    const state = await signValue(STRIPE_CONNECT_PURPOSE, {
      workspaceId: ctx.workspaceId,
      userId: ctx.userId,
    });
    return { to: stripeConnectAuthorizeUrl(state) };
  },
  { audit: false, after: ({ to }) => redirect(to) },
);

/** Spec 2.10: whether purchasers are subscribed. The account itself is never a form field. */
export const saveConnectionAction = memberAction(
  connectionSettingsForm,
  async (db, { autoSubscribePurchasers }, ctx): Promise<FormState> => {
    const { data } = await savePayprocSettings(db, { workspaceId: ctx.workspaceId, autoSubscribePurchasers });
    if (!data.updated) throw new AppError("invalid", "Connect a Stripe account first.");
    ctx.audit.target("payproc_connection", ctx.workspaceId).change(null, { autoSubscribePurchasers });
    return {
      success: "The payment settings are saved.",
      values: autoSubscribePurchasers ? { autoSubscribePurchasers: "on" } : {},
    };
  },
  { ...admins, audit: "connection.payments_updated", after: refresh },
);

/**
 * Removes the connection; after the commit, Stripe is told the platform no longer acts for
 * the account (the account id is the audit row's `before`).
 */
export const disconnectAction = memberAction(
  z.object({}),
  async (db, _input, ctx): Promise<FormState> => {
    const accountId = await deletePayprocConnection(db, ctx.workspaceId);
    ctx.audit.target("payproc_connection", ctx.workspaceId).change({ payprocAccountId: accountId }, null);
    return { success: "Disconnected. New purchases will no longer be recorded." };
  },
  {
    ...admins,
    audit: "connection.payments_disconnected",
    after: async (_result, _input, ctx) => {
      const accountId = ctx.audit.before?.payprocAccountId;
      if (typeof accountId === "string") await deauthorizeStripeAccount(accountId);
      refresh();
    },
  },
);
