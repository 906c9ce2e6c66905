import type { Metadata } from "next";
import Link from "next/link";
import { ChangePasswordForm } from "@/components/auth-forms";
import { requireMember } from "@/lib/auth/context";
import { changePasswordAction, signOutEverywhereAction } from "../account-actions";
import { asFormAction } from "@/lib/http/form-state";

export const metadata: Metadata = { title: "Account" };

/** The signed-in user's password and sessions (docs/decisions.md, "Sessions"). */
export default async function AccountPage() {
  const ctx = await requireMember();
  return (
    <>
      <p className="hint">
        <Link href="/settings">Settings</Link> / Account
      </p>
      <h1>Account</h1>
      <div className="stack">
        <section className="card" aria-labelledby="password-heading">
          <h2 id="password-heading" style={{ marginTop: 0 }}>
            Password
          </h2>
          <p className="hint">Signed in as {ctx.claims.email}.</p>
          <ChangePasswordForm action={changePasswordAction} />
        </section>
        <section className="card" aria-labelledby="two-factor-heading">
          <h2 id="two-factor-heading" style={{ marginTop: 0 }}>
            Two-factor authentication
          </h2>
          <p>
            A code from an authenticator app at each sign-in, and before dangerous changes:{" "}
            <Link href="/account/security">set it up or change it</Link>.
          </p>
        </section>
        <section className="card" aria-labelledby="sessions-heading">
          <h2 id="sessions-heading" style={{ marginTop: 0 }}>
            Sessions
          </h2>
          <p>Signs out every browser and device signed in to this account, this one included.</p>
          <form action={asFormAction(signOutEverywhereAction)}>
            <button type="submit" className="secondary">
              Sign out everywhere
            </button>
          </form>
        </section>
      </div>
    </>
  );
}
