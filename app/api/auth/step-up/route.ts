import { z } from "zod";
import { userRoute } from "@/lib/adapters/user-route";
import { limitAttempt } from "@/lib/auth/flows/limit-attempt";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import { startLocalSession } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { hasFactorSupabase, passwordAgainSupabase, verifyCodeSupabase } from "@/lib/auth/supabase-actions";
import type { Claims } from "@/lib/db/doors";
import { withService } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { parseJson } from "@/lib/http/parse-json";
import { readLimitedText } from "@/lib/http/read-limited-body";
import { sameOrigin } from "@/lib/http/same-origin";
import { STEP_UP_NOT_VALID, stepUpFlow } from "@/lib/two-factor/flows/second-factor-flows";
import { recordAccountAudit } from "@/lib/two-factor/record-account-audit";

const body = z.object({ secret: z.string().min(1).max(200) });

/**
 * Step-up (docs/decisions.md "A second factor"): the signed-in
 * member proves it is them again, with a code when the account has a second factor, else the
 * password; the session then counts as fresh for the step-up window. The page that was refused
 * `step_up_required` calls this, then retries. Same-origin only; counted; refusals audited.
 */
export const POST = userRoute({ name: "step-up" }, async (request, _params, { claims, ip }) => {
  if (!sameOrigin(request)) throw new AppError("forbidden");
  // a body too large or not UTF-8 is one more body that is not valid
  const text = await readLimitedText(request, 4096).catch((error: unknown) => {
    if (error instanceof AppError) return null;
    throw error;
  });
  const json = text === null ? null : parseJson(text);
  const parsed = body.safeParse(json?.value);
  if (!parsed.success) throw new AppError("invalid", STEP_UP_NOT_VALID);
  if (supabaseConfigured()) await stepUpSupabase(claims, parsed.data.secret, ip);
  else {
    const result = await stepUpFlow({ claims, secret: parsed.data.secret }, ip);
    if ("error" in result) throw result.error;
    await startLocalSession(result.data.user, result.data.assurance);
  }
  return Response.json({ success: true });
});

/** Supabase: a verified code (its MFA) or, without a factor, the password again. */
async function stepUpSupabase(claims: Claims, secret: string, ip: string | null): Promise<void> {
  if (!(await limitAttempt("secondFactor", { ip, account: claims.sub })))
    throw new AppError("rate_limited", TOO_MANY_ATTEMPTS);
  const ok = (await hasFactorSupabase())
    ? await verifyCodeSupabase(secret)
    : await passwordAgainSupabase(claims.email ?? "", secret);
  if (ok) return;
  await withService((db) =>
    recordAccountAudit(db, { userId: claims.sub, email: claims.email, action: "account.step_up_failed", ip }),
  );
  throw new AppError("invalid", STEP_UP_NOT_VALID);
}
