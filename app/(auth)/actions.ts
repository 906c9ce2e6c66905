"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { publicAction } from "@/lib/adapters/public-action";
import { safeNextPath } from "@/lib/auth/account-links";
import { signInFlow, signUpFlow } from "@/lib/auth/flows/account-flows";
import { afterAnswer } from "@/lib/auth/flows/after-answer";
import { requestSignUp, signUpSent } from "@/lib/auth/request-sign-up";
import { signInSchema, signUpSchema, type SignUpInput } from "@/lib/auth/schemas";
import { endSession, startLocalSession, startPendingSignIn } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { secondStepPendingSupabase, signInSupabase, signUpSupabase } from "@/lib/auth/supabase-actions";
import { withService } from "@/lib/db/doors";
import { clientIp } from "@/lib/http/client-ip";
import type { FormState } from "@/lib/http/form-state";

const ip = async () => clientIp(await headers());

/** Every sign-in attempt counts, per IP and per account, before bcrypt (docs/decisions.md, "Account rate limits"). */
export const signInAction = publicAction(
  "sign in",
  signInSchema.extend({ next: z.unknown().optional() }),
  async ({ email, password, next }): Promise<FormState> => {
    const result = await signInFlow(
      { email, password },
      await ip(),
      supabaseConfigured() ? signInSupabase : undefined,
    );
    if ("error" in result) throw result.error;
    const then = safeNextPath(next);
    const secondStep = `/sign-in/two-factor${then ? `?next=${encodeURIComponent(then)}` : ""}`;
    if (supabaseConfigured()) {
      // Supabase's session is aal1 until the code raises it (its MFA)
      if (await secondStepPendingSupabase()) redirect(secondStep);
      redirect(then ?? "/");
    }
    const { userId: id, email: address, sessionVersion = 0, secondFactor } = result.data;
    if (secondFactor) {
      // the password alone is not a session: the code is due (lib/two-factor/pending-sign-in.ts)
      const password = { method: "password", timestamp: Math.floor(Date.now() / 1000) };
      await startPendingSignIn({ userId: id, email: address, sessionVersion, password });
      redirect(secondStep);
    }
    await startLocalSession({ id, email: address, sessionVersion });
    redirect(then ?? "/");
  },
);

type SignUpAnswer = Awaited<ReturnType<typeof signUpSupabase>>;

/** Local: the link is made and sent after answering, so known and unknown addresses take the same time. */
async function signUpLocal(input: SignUpInput): Promise<SignUpAnswer> {
  afterAnswer("sign-up", () => withService((db) => requestSignUp(db, input)));
  return { data: { email: input.email } };
}

/**
 * Sign-up sends a confirmation link and answers the same whether or not the address has
 * an account (docs/decisions.md, "Sign-up by emailed link").
 */
export const signUpAction = publicAction("sign up", signUpSchema, async (input): Promise<FormState> => {
  const result = await signUpFlow<SignUpAnswer>(
    input,
    await ip(),
    supabaseConfigured() ? signUpSupabase : signUpLocal,
  );
  if ("error" in result) throw result.error;
  if ("signedIn" in result.data && result.data.signedIn) redirect("/");
  return { success: signUpSent(result.data.email) };
});

export const signOutAction = publicAction("sign out", z.object({}), async (): Promise<FormState> => {
  await endSession();
  redirect("/sign-in");
});
