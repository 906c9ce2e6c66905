import { recordFlowAudit } from "@/lib/audit/record-audit";
import { withService } from "@/lib/db/doors";
import { refused, type Refused } from "@/lib/errors/app-error";
import { confirmSignUp } from "../confirm-sign-up";
import { linkDigest } from "../account-links";
import { signInLocal, type AuthResult } from "../local-provider";
import { TOO_MANY_ATTEMPTS } from "../rate-limits";
import { requestSignUp } from "../request-sign-up";
import { requestPasswordReset } from "../reset-password";
import type { SignInInput, SignUpInput } from "../schemas";
import { acceptInvitation } from "@/lib/workspaces/accept-invitation";
import { limitAttempt } from "./limit-attempt";

type Limited<T> = T | Refused;

/** The refusal of an attempt over its limit (lib/auth/rate-limits). */
const tooMany = () => refused("rate_limited", TOO_MANY_ATTEMPTS);

/**
 * docs/decisions.md, "Account rate limits": each account action counts the attempt (per client IP and per
 * account, lib/auth/rate-limits) in a transaction of its own, before any password is
 * hashed or email sent, then runs the action. `provider` is the configured one (local
 * here; the server actions pass Supabase's when it is configured).
 */
export async function signInFlow(
  input: SignInInput,
  ip: string | null,
  provider: (input: SignInInput) => Promise<AuthResult> = (i) => withService((db) => signInLocal(db, i)),
): Promise<Limited<AuthResult>> {
  if (!(await limitAttempt("signIn", { ip, account: input.email }))) return tooMany();
  return provider(input);
}

export async function signUpFlow<T>(
  input: SignUpInput,
  ip: string | null,
  provider: (input: SignUpInput) => Promise<T> = (i) =>
    withService((db) => requestSignUp(db, i)) as Promise<T>,
): Promise<Limited<T>> {
  if (!(await limitAttempt("signUp", { ip, account: input.email }))) return tooMany();
  return provider(input);
}

export async function requestResetFlow(
  input: { email: string },
  ip: string | null,
  provider: (email: string) => Promise<unknown> = (email) =>
    withService((db) => requestPasswordReset(db, { email })),
): Promise<Limited<{ data: { email: string } }>> {
  if (!(await limitAttempt("reset", { ip, account: input.email }))) return tooMany();
  await provider(input.email);
  return { data: { email: input.email } };
}

/** The sign-up link's password is a guessable secret too: counted like a sign-in, per link. */
export async function confirmSignUpFlow(
  input: { token: string; password: string },
  ip: string | null,
): Promise<Limited<AuthResult>> {
  if (!(await limitAttempt("signIn", { ip, account: `link:${linkDigest(input.token)}` }))) return tooMany();
  return withService((db) => confirmSignUp(db, input));
}

/** The membership and its audit row (member.joined, in the workspace joined) in one transaction. */
export async function acceptInvitationFlow(
  input: { token: string; userId: string; email?: string | null },
  ip: string | null,
) {
  if (!(await limitAttempt("acceptInvitation", { ip, account: input.userId }))) return tooMany();
  return withService(async (db) => {
    const result = await acceptInvitation(db, input);
    if ("data" in result)
      await recordFlowAudit(db, { sub: input.userId, email: input.email }, "member.joined", {
        workspaceId: result.data.workspaceId,
        target: ["member", input.userId],
        after: { role: result.data.role },
        ip,
      });
    return result;
  });
}
