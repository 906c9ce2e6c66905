"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { userAction } from "@/lib/adapters/user-action";
import { limitAttempt } from "@/lib/auth/flows/limit-attempt";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import { startLocalSession } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import {
  confirmEnrolmentSupabase,
  disableSupabase,
  startEnrolmentSupabase,
} from "@/lib/auth/supabase-actions";
import { withService, type Claims } from "@/lib/db/doors";
import { AppError, unwrap } from "@/lib/errors/app-error";
import type { SecurityState } from "@/components/two-factor/types";
import {
  confirmEnrolment,
  disableTwoFactor,
  regenerateRecoveryCodes,
  startEnrolment,
} from "@/lib/two-factor/enrol-two-factor";
import { recordAccountAudit } from "@/lib/two-factor/record-account-audit";
import { CODE_NOT_VALID } from "@/lib/two-factor/verify-second-factor";

const code = z.string({ error: "Enter the code." }).trim().min(1, "Enter the code.").max(40, CODE_NOT_VALID);
const now = () => Math.floor(Date.now() / 1000);

/** The account's own settings: user actions (any workspace, or none), counted attempts. */
const account = { signIn: () => "/sign-in?next=/account/security" };
/**
 * Enrolling ends every other session: a stolen session must not enrol its own authenticator and
 * lock the owner out, so both steps need a step-up (docs/decisions.md "A second factor"). Turning
 * it off and new recovery codes take a current code, itself a fresh second-factor proof.
 */
const enrolling = { ...account, stepUp: true };

async function counted(claims: Claims, ip: string | null): Promise<void> {
  if (!(await limitAttempt("secondFactor", { ip, account: claims.sub })))
    throw new AppError("rate_limited", TOO_MANY_ATTEMPTS);
}

/** Enrolment, step 1: a new secret and its QR code (drawn on the server: no outside request). */
export const startEnrolmentAction = userAction(
  "start two-factor enrolment",
  z.object({}),
  async (_input, { claims }): Promise<SecurityState> => {
    const result = supabaseConfigured()
      ? await startEnrolmentSupabase()
      : await withService((db) => startEnrolment(db, { userId: claims.sub, email: claims.email ?? "" }));
    const { secret, qrCode, ...rest } = unwrap(result);
    return {
      enrolment: { secret, qrCode, factorId: "factorId" in rest ? String(rest.factorId) : undefined },
    };
  },
  enrolling,
);

/**
 * Enrolment, step 2: the first code turns it on. Locally: the recovery codes come back once,
 * every other session ends, and this one is reissued at aal2.
 */
export const confirmEnrolmentAction = userAction(
  "confirm two-factor enrolment",
  z.object({ code, factorId: z.string().max(100).optional() }),
  async (input, { claims, ip }): Promise<SecurityState> => {
    await counted(claims, ip);
    const audit = { userId: claims.sub, email: claims.email, ip };
    if (supabaseConfigured()) {
      if (!input.factorId || !(await confirmEnrolmentSupabase(input.factorId, input.code)))
        throw new AppError("invalid", CODE_NOT_VALID, { field: "code" });
      await withService((db) => recordAccountAudit(db, { ...audit, action: "account.two_factor_enabled" }));
      return { success: "Two-factor authentication is on." };
    }
    const result = await withService(async (db) => {
      const confirmed = await confirmEnrolment(db, { userId: claims.sub, code: input.code });
      if ("data" in confirmed)
        await recordAccountAudit(db, { ...audit, action: "account.two_factor_enabled" });
      return confirmed;
    });
    const { recoveryCodes, sessionVersion, email } = unwrap(result);
    await startLocalSession(
      { id: claims.sub, email, sessionVersion },
      { aal: "aal2", amr: [...(claims.amr ?? []), { method: "totp", timestamp: now() }] },
    );
    return {
      recoveryCodes,
      success: "Two-factor authentication is on. Save your recovery codes now: they are shown only once.",
    };
  },
  enrolling,
);

/** Turning it off takes a current code (or a recovery code); other sessions end. */
export const disableTwoFactorAction = userAction(
  "disable two-factor",
  z.object({ code }),
  async (input, { claims, ip }): Promise<SecurityState> => {
    await counted(claims, ip);
    const audit = { userId: claims.sub, email: claims.email, ip };
    if (supabaseConfigured()) {
      const ok = await disableSupabase(input.code);
      await withService((db) =>
        recordAccountAudit(db, {
          ...audit,
          action: ok ? "account.two_factor_disabled" : "account.second_factor_failed",
          after: ok ? undefined : { step: "disable" },
        }),
      );
      if (!ok) throw new AppError("invalid", CODE_NOT_VALID, { field: "code" });
      redirect("/account/security?disabled=1");
    }
    const result = await withService(async (db) => {
      const disabled = await disableTwoFactor(db, { userId: claims.sub, code: input.code });
      await recordAccountAudit(db, {
        ...audit,
        action: "data" in disabled ? "account.two_factor_disabled" : "account.second_factor_failed",
        after: "data" in disabled ? undefined : { step: "disable" },
      });
      return disabled;
    });
    const { sessionVersion, email } = unwrap(result);
    await startLocalSession(
      { id: claims.sub, email, sessionVersion },
      { aal: "aal1", amr: (claims.amr ?? []).filter((entry) => entry.method === "password") },
    );
    redirect("/account/security?disabled=1");
  },
  account,
);

/** New recovery codes after a current code; the old ones stop working. */
export const regenerateRecoveryCodesAction = userAction(
  "regenerate recovery codes",
  z.object({ code }),
  async (input, { claims, ip }): Promise<SecurityState> => {
    await counted(claims, ip);
    const audit = { userId: claims.sub, email: claims.email, ip };
    const result = await withService(async (db) => {
      const made = await regenerateRecoveryCodes(db, { userId: claims.sub, code: input.code });
      await recordAccountAudit(db, {
        ...audit,
        action: "data" in made ? "account.recovery_codes_regenerated" : "account.second_factor_failed",
        after: "data" in made ? undefined : { step: "recovery_codes" },
      });
      return made;
    });
    return {
      recoveryCodes: unwrap(result).recoveryCodes,
      success: "New recovery codes. Save them now: they are shown only once; the old ones no longer work.",
    };
  },
  account,
);
