import type { Claims } from "@/lib/db/doors";
import { withService } from "@/lib/db/doors";
import { refused, type Refused } from "@/lib/errors/app-error";
import { limitAttempt } from "@/lib/auth/flows/limit-attempt";
import { passwordMatches } from "@/lib/auth/local-provider";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import type { SessionAssurance } from "@/lib/auth/tokens";
import type { PendingSignIn } from "../pending-sign-in";
import { recordAccountAudit } from "../record-account-audit";
import { CODE_NOT_VALID, twoFactorEnabled, verifySecondFactor } from "../verify-second-factor";

type Refusal = Refused;
const now = () => Math.floor(Date.now() / 1000);

/**
 * Sign-in's second step (local provider): the code is counted (per account and IP, before it
 * is checked), checked, and a refusal audited; the session it yields is aal2, its `amr` the
 * password's entry and the code's. A password changed since the first step voids it.
 */
export async function secondStepFlow(
  input: { pending: PendingSignIn; code: string },
  ip: string | null,
): Promise<
  | { data: { user: { id: string; email: string; sessionVersion: number }; assurance: SessionAssurance } }
  | Refusal
> {
  const { pending } = input;
  if (!(await limitAttempt("secondFactor", { ip, account: pending.userId })))
    return refused("rate_limited", TOO_MANY_ATTEMPTS);
  return withService(async (db) => {
    const [user] = await db`select session_version, email from auth.users where id = ${pending.userId}`;
    if (!user || user.session_version !== pending.sessionVersion)
      return refused("invalid", CODE_NOT_VALID, { field: "code" });
    const verified = await verifySecondFactor(db, { userId: pending.userId, code: input.code });
    const audit = { userId: pending.userId, email: user.email, ip };
    if ("error" in verified) {
      await recordAccountAudit(db, {
        ...audit,
        action: "account.second_factor_failed",
        after: { step: "sign_in" },
      });
      return verified;
    }
    if (verified.data.method === "recovery")
      await recordAccountAudit(db, {
        ...audit,
        action: "account.recovery_code_used",
        after: { step: "sign_in" },
      });
    return {
      data: {
        user: { id: pending.userId, email: user.email, sessionVersion: user.session_version },
        assurance: {
          aal: "aal2",
          amr: [pending.password, { method: verified.data.method, timestamp: now() }],
        },
      },
    };
  });
}

/**
 * Step-up (local provider): a fresh proof for the signed-in account, a code when it has a
 * second factor (the password alone would step down to one factor), else the password. The
 * session keeps its level and gains an `amr` entry dated now. A refusal is audited.
 */
export async function stepUpFlow(
  input: { claims: Claims; secret: string },
  ip: string | null,
): Promise<
  | { data: { user: { id: string; email: string; sessionVersion: number }; assurance: SessionAssurance } }
  | Refusal
> {
  const { claims } = input;
  if (!(await limitAttempt("secondFactor", { ip, account: claims.sub })))
    return refused("rate_limited", TOO_MANY_ATTEMPTS);
  return withService(async (db) => {
    const [user] = await db`
      select session_version, email, encrypted_password from auth.users where id = ${claims.sub}`;
    if (!user) return refused("invalid", CODE_NOT_VALID);
    let method: string | null = null;
    if (await twoFactorEnabled(db, claims.sub)) {
      const verified = await verifySecondFactor(db, { userId: claims.sub, code: input.secret });
      if ("data" in verified) method = verified.data.method;
    } else if (await passwordMatches(input.secret, user.encrypted_password)) method = "password";
    const audit = { userId: claims.sub, email: user.email, ip };
    if (!method) {
      await recordAccountAudit(db, { ...audit, action: "account.step_up_failed" });
      return refused("invalid", STEP_UP_NOT_VALID, { field: "secret" });
    }
    if (method === "recovery")
      await recordAccountAudit(db, {
        ...audit,
        action: "account.recovery_code_used",
        after: { step: "step_up" },
      });
    return {
      data: {
        user: { id: claims.sub, email: user.email, sessionVersion: user.session_version },
        assurance: {
          aal: claims.aal ?? "aal1",
          amr: [
            ...(claims.amr ?? []).filter((entry) => entry.method !== method),
            { method, timestamp: now() },
          ],
        },
      },
    };
  });
}

export const STEP_UP_NOT_VALID =
  "That is not right. Enter your password, or with two-factor on, a current code.";
