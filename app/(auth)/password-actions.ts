"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { publicAction } from "@/lib/adapters/public-action";
import { confirmSignUpFlow, requestResetFlow } from "@/lib/auth/flows/account-flows";
import { afterAnswer } from "@/lib/auth/flows/after-answer";
import { limitAttempt } from "@/lib/auth/flows/limit-attempt";
import { auditPasswordReset } from "@/lib/auth/change-password";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import { requestPasswordReset, resetPassword, resetSent } from "@/lib/auth/reset-password";
import { confirmSignUpSchema, requestResetSchema, resetPasswordSchema } from "@/lib/auth/schemas";
import { chooseWorkspace, getClaims, startLocalSession } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { requestResetSupabase, updatePasswordSupabase } from "@/lib/auth/supabase-actions";
import { withService } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import type { FormState } from "@/lib/http/form-state";

const ip = async () => clientIp(await headers());

/** Opening the sign-up link with the chosen password creates the account and signs in. */
export const confirmSignUpAction = publicAction(
  "confirm sign-up",
  confirmSignUpSchema,
  async (input): Promise<FormState> => {
    const result = await confirmSignUpFlow(input, await ip());
    if ("error" in result) throw result.error;
    const { userId, email, sessionVersion, workspaceId } = result.data;
    await startLocalSession({ id: userId, email, sessionVersion: sessionVersion ?? 0 });
    if (workspaceId) await chooseWorkspace(workspaceId);
    redirect("/");
  },
);

/** One answer whether or not the address has an account (docs/decisions.md, "Sign-up by emailed link"). */
export const requestResetAction = publicAction(
  "request password reset",
  requestResetSchema,
  async ({ email }): Promise<FormState> => {
    const local = async (address: string) =>
      afterAnswer("password reset", () => withService((db) => requestPasswordReset(db, { email: address })));
    const result = await requestResetFlow(
      { email },
      await ip(),
      supabaseConfigured() ? requestResetSupabase : local,
    );
    if ("error" in result) throw result.error;
    return { success: resetSent(email) };
  },
);

/**
 * A new password from a reset link (local), or after Supabase's recovery link signed the user
 * in: there the session is not proof enough, so the recovery link's one-use grant, left in
 * this browser a few minutes ago, is required (lib/auth/flows/supabase.ts). Either way the
 * attempt is counted and the change is audited in each of the account's workspaces.
 */
export const resetPasswordAction = publicAction(
  "reset password",
  z.preprocess(
    (raw) => (supabaseConfigured() ? { ...(raw as object), token: "supabase-session" } : raw),
    resetPasswordSchema,
  ),
  async (input): Promise<FormState> => {
    const address = await ip();
    if (supabaseConfigured()) {
      const claims = await getClaims();
      if (!(await limitAttempt("reset", { ip: address, account: claims?.email ?? claims?.sub })))
        throw new AppError("rate_limited", TOO_MANY_ATTEMPTS);
      const changed = await updatePasswordSupabase(input.password);
      if (!changed) throw new AppError("not_found", "The password could not be changed. Ask for a new link.");
      await withService((db) => auditPasswordReset(db, { ...changed, ip: address, via: "recovery link" }));
      redirect("/");
    }
    if (!(await limitAttempt("reset", { ip: address })))
      throw new AppError("rate_limited", TOO_MANY_ATTEMPTS);
    const result = await withService(async (db) => {
      const reset = await resetPassword(db, input);
      if ("data" in reset) await auditPasswordReset(db, { ...reset.data, ip: address, via: "reset link" });
      return reset;
    });
    if ("error" in result) throw result.error;
    redirect("/sign-in?reset=1");
  },
);
