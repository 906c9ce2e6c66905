import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { signOutAction } from "@/app/(auth)/actions";
import { SignOutForm } from "@/components/sign-out-form";
import { CodeForm } from "@/components/two-factor/code-form";
import { Enrolment } from "@/components/two-factor/enrolment";
import { getClaims } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { hasFactorSupabase } from "@/lib/auth/supabase-actions";
import { withService } from "@/lib/db/doors";
import { twoFactorStatus } from "@/lib/two-factor/enrol-two-factor";
import {
  confirmEnrolmentAction,
  disableTwoFactorAction,
  regenerateRecoveryCodesAction,
  startEnrolmentAction,
} from "./actions";

export const metadata: Metadata = { title: "Account security" };

/**
 * The account's second factor: set it up (QR code, key, first code), the recovery codes, and
 * turning it off with a code. Outside the dashboard's layout: a member whose workspace requires
 * two-factor is sent here before they may use it.
 */
export default async function AccountSecurityPage({
  searchParams,
}: {
  searchParams: Promise<{ required?: string; disabled?: string }>;
}) {
  const claims = await getClaims();
  if (!claims) redirect("/sign-in?next=/account/security");
  const { required, disabled } = await searchParams;
  const status = supabaseConfigured()
    ? { enabled: await hasFactorSupabase(), recoveryCodesLeft: null }
    : await withService((db) => twoFactorStatus(db, claims.sub));
  return (
    <main className="auth-page">
      <div className="card stack">
        <p className="hint">
          <Link href="/settings/account">Account</Link> / Security
        </p>
        <h1>Two-factor authentication</h1>
        {required && !status.enabled && (
          <p className="alert info" role="status">
            Your workspace requires two-factor authentication. Set it up to continue.
          </p>
        )}
        {disabled && <p className="alert success">Two-factor authentication is off.</p>}
        <Enrolment start={startEnrolmentAction} confirm={confirmEnrolmentAction} enabled={status.enabled}>
          <>
            <p>
              <strong>On.</strong> Signing in asks for a code from your authenticator app.
              {status.recoveryCodesLeft !== null && ` Recovery codes left: ${status.recoveryCodesLeft}.`}
            </p>
            {status.recoveryCodesLeft !== null && (
              <section aria-labelledby="codes-heading" className="stack">
                <h2 id="codes-heading">New recovery codes</h2>
                <CodeForm
                  action={regenerateRecoveryCodesAction}
                  id="codes"
                  submit="Make new recovery codes"
                  pendingLabel="Making…"
                />
              </section>
            )}
            <section aria-labelledby="disable-heading" className="stack">
              <h2 id="disable-heading">Turn off</h2>
              <CodeForm
                action={disableTwoFactorAction}
                id="disable"
                submit="Turn off two-factor"
                pendingLabel="Turning off…"
                danger
              />
            </section>
          </>
        </Enrolment>
        <p className="hint">Signed in as {claims.email}.</p>
        <SignOutForm action={signOutAction} />
      </div>
    </main>
  );
}
