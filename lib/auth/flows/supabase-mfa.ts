import QRCode from "qrcode";
import { refused, type Result } from "@/lib/errors/app-error";
import type { Enrolment } from "@/lib/two-factor/enrol-two-factor";
import { supabaseClient, type CookieJar } from "../supabase-provider";

/**
 * The second factor with Supabase Auth configured: Supabase's own MFA (auth.mfa: enroll,
 * challenge and verify, getAuthenticatorAssuranceLevel). Its factors live in Supabase
 * (auth.mfa_factors), a verified code raises the session to `aal2`, and the session's `amr`
 * dates each method. Supabase has no recovery codes: a second factor enrolled as a spare, or
 * an administrator's unenrol with the service key, recovers an account.
 */

/** Signed in with the password only while the account has a verified factor: the code is due. */
export async function secondStepPendingSupabase(jar: CookieJar): Promise<boolean> {
  const { data } = await supabaseClient(jar).auth.mfa.getAuthenticatorAssuranceLevel();
  return data?.nextLevel === "aal2" && data.currentLevel !== "aal2";
}

/** Whether the account has a verified TOTP factor. */
export async function hasFactorSupabase(jar: CookieJar): Promise<boolean> {
  const { data } = await supabaseClient(jar).auth.mfa.listFactors();
  return (data?.totp ?? []).some((factor) => factor.status === "verified");
}

/** Challenges and verifies the account's verified TOTP factor with `code`: the session becomes aal2. */
export async function verifyCodeSupabase(jar: CookieJar, code: string): Promise<boolean> {
  const supabase = supabaseClient(jar);
  const { data } = await supabase.auth.mfa.listFactors();
  const factor = (data?.totp ?? []).find((f) => f.status === "verified");
  if (!factor) return false;
  const { error } = await supabase.auth.mfa.challengeAndVerify({
    factorId: factor.id,
    code: code.replace(/\s/g, ""),
  });
  return !error;
}

/** Enrolment, step 1: Supabase makes the secret; the QR code is drawn here from its URI. */
export async function startEnrolmentSupabase(
  jar: CookieJar,
): Promise<Result<Enrolment & { factorId: string }>> {
  const supabase = supabaseClient(jar);
  // an unverified factor from an abandoned set-up would block a new one of the same name
  const { data: factors } = await supabase.auth.mfa.listFactors();
  for (const factor of factors?.all ?? [])
    if (factor.status === "unverified") await supabase.auth.mfa.unenroll({ factorId: factor.id });
  const { data, error } = await supabase.auth.mfa.enroll({
    factorType: "totp",
    friendlyName: "Authenticator app",
  });
  if (error || !data || data.type !== "totp")
    return refused("provider_failed", "Two-factor set-up could not start. Try again.");
  const svg = await QRCode.toString(data.totp.uri, { type: "svg", errorCorrectionLevel: "M", margin: 2 });
  return {
    data: {
      factorId: data.id,
      secret: data.totp.secret,
      uri: data.totp.uri,
      qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString("base64")}`,
    },
  };
}

/** Enrolment, step 2: the first code verifies the factor (and raises this session to aal2). */
export async function confirmEnrolmentSupabase(
  jar: CookieJar,
  factorId: string,
  code: string,
): Promise<boolean> {
  const { error } = await supabaseClient(jar).auth.mfa.challengeAndVerify({
    factorId,
    code: code.replace(/\s/g, ""),
  });
  return !error;
}

/** Turning it off: a valid code first (aal2, which Supabase requires to unenrol a verified factor). */
export async function disableSupabase(jar: CookieJar, code: string): Promise<boolean> {
  if (!(await verifyCodeSupabase(jar, code))) return false;
  const supabase = supabaseClient(jar);
  const { data } = await supabase.auth.mfa.listFactors();
  for (const factor of data?.all ?? []) {
    const { error } = await supabase.auth.mfa.unenroll({ factorId: factor.id });
    if (error) return false;
  }
  return true;
}

/** Step-up without a factor: the password again, which dates a new `password` entry in `amr`. */
export async function passwordAgainSupabase(
  jar: CookieJar,
  email: string,
  password: string,
): Promise<boolean> {
  const { error } = await supabaseClient(jar).auth.signInWithPassword({ email, password });
  return !error;
}
