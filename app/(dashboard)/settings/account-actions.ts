"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import {
  accountSession,
  changePassword,
  CURRENT_PASSWORD_WRONG,
  signOutEverywhere,
} from "@/lib/auth/change-password";
import { limitAttempt } from "@/lib/auth/flows/limit-attempt";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import { changePasswordSchema } from "@/lib/auth/schemas";
import { endSession, startLocalSession } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { signOutEverywhereSupabase, updatePasswordSupabase } from "@/lib/auth/supabase-actions";
import { withService } from "@/lib/db/doors";
import { AppError, unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";

const CHANGED = "Your password was changed.";

/**
 * docs/decisions.md, "Sessions": a signed-in user changes their password with the current one. Before the
 * transaction: the attempt is counted (a sign-in attempt, in a transaction of its own that a
 * refusal does not roll back) and, with Supabase, its Auth API checks and changes the
 * password. Then, locally, the change itself (the service door: auth.users is the service's)
 * and, either way, the audit row. Every other session ends; this one carries on.
 */
export const changePasswordAction = memberAction(
  changePasswordSchema,
  async (db, input, ctx): Promise<FormState> => {
    ctx.audit.target("user", ctx.userId).change(null, { sessionsEnded: !supabaseConfigured() });
    if (supabaseConfigured()) return { success: CHANGED };
    unwrap(await changePassword(db, { userId: ctx.userId, ...input }), "currentPassword");
    return { success: `${CHANGED} Every other session was signed out.` };
  },
  {
    audit: "account.password_changed",
    door: "service",
    before: async (input, ctx) => {
      if (!(await limitAttempt("signIn", { ip: ctx.ip, account: ctx.claims.email ?? ctx.userId })))
        throw new AppError("rate_limited", TOO_MANY_ATTEMPTS);
      if (!supabaseConfigured()) return;
      const changed = await updatePasswordSupabase(input.newPassword, {
        email: ctx.claims.email ?? "",
        password: input.currentPassword,
      });
      if (!changed) throw new AppError("invalid", CURRENT_PASSWORD_WRONG, { field: "currentPassword" });
    },
    after: async (_result, _input, ctx) => {
      if (supabaseConfigured()) return;
      // this browser's session, at the account's new version (the others no longer count)
      const session = await withService((db) => accountSession(db, { userId: ctx.userId }));
      // the same assurance, and a password entry dated now: the current password was just given
      const password = { method: "password", timestamp: Math.floor(Date.now() / 1000) };
      const amr = [...(ctx.claims.amr ?? []).filter((entry) => entry.method !== "password"), password];
      if (session)
        await startLocalSession({ id: ctx.userId, ...session }, { aal: ctx.claims.aal ?? "aal1", amr });
    },
  },
);

/** Every session of the account ends, this one too (Supabase's, after the commit). */
export const signOutEverywhereAction = memberAction(
  z.object({}),
  async (db, _input, ctx) => {
    ctx.audit.target("user", ctx.userId);
    if (!supabaseConfigured()) await signOutEverywhere(db, { userId: ctx.userId });
    return {};
  },
  {
    audit: "account.signed_out_everywhere",
    door: "service",
    after: async () => {
      if (supabaseConfigured()) await signOutEverywhereSupabase();
      await endSession();
      redirect("/sign-in");
    },
  },
);
