"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { publicAction } from "@/lib/adapters/public-action";
import { safeNextPath } from "@/lib/auth/account-links";
import { limitAttempt } from "@/lib/auth/flows/limit-attempt";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import { endPendingSignIn, pendingSignIn, startLocalSession } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { sessionUserSupabase, verifyCodeSupabase } from "@/lib/auth/supabase-actions";
import { withService } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { clientIp } from "@/lib/http/client-ip";
import type { FormState } from "@/lib/http/form-state";
import { secondStepFlow } from "@/lib/two-factor/flows/second-factor-flows";
import { recordAccountAudit } from "@/lib/two-factor/record-account-audit";
import { CODE_NOT_VALID } from "@/lib/two-factor/verify-second-factor";

const codeSchema = z.object({
  code: z.string({ error: "Enter the code." }).trim().min(1, "Enter the code.").max(40, CODE_NOT_VALID),
  next: z.unknown().optional(),
});

/**
 * Sign-in's second step: a TOTP code or a recovery code turns the pending sign-in into a
 * session (aal2). Attempts are counted per account and IP; refusals are audited.
 */
export const secondStepAction = publicAction(
  "two-factor sign-in",
  codeSchema,
  async ({ code, next }): Promise<FormState> => {
    const ip = clientIp(await headers());
    if (supabaseConfigured()) await secondStepSupabase(code, ip);
    else {
      const pending = await pendingSignIn();
      if (!pending) redirect("/sign-in");
      const result = await secondStepFlow({ pending, code }, ip);
      if ("error" in result) throw result.error;
      await endPendingSignIn();
      await startLocalSession(result.data.user, result.data.assurance);
    }
    redirect(safeNextPath(next) ?? "/");
  },
);

/** Supabase: its challenge and verify raise the aal1 session to aal2. */
async function secondStepSupabase(code: string, ip: string | null): Promise<void> {
  const user = await sessionUserSupabase();
  if (!user) redirect("/sign-in");
  if (!(await limitAttempt("secondFactor", { ip, account: user.id })))
    throw new AppError("rate_limited", TOO_MANY_ATTEMPTS);
  if (await verifyCodeSupabase(code)) return;
  await withService((db) =>
    recordAccountAudit(db, {
      userId: user.id,
      email: user.email,
      action: "account.second_factor_failed",
      after: { step: "sign_in" },
      ip,
    }),
  );
  throw new AppError("invalid", CODE_NOT_VALID, { field: "code" });
}
