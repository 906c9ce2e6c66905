import type { Metadata } from "next";
import Link from "next/link";
import { ConfirmSignUpForm } from "@/components/auth-forms";
import { confirmSignUpAction } from "../password-actions";
import { findSignUpLink, SIGN_UP_LINK_INVALID } from "@/lib/auth/confirm-sign-up";
import { withService } from "@/lib/db/doors";

export const metadata: Metadata = { title: "Confirm your email address" };

/** The sign-up link: opening it changes nothing, the form below does (docs/decisions.md, "Sign-up by emailed link"). */
export default async function ConfirmEmailPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const { token = "" } = await searchParams;
  const link = await withService((db) => findSignUpLink(db, token));
  return (
    <main className="auth-page">
      <div className="card stack">
        <h1>Confirm your email address</h1>
        {link ? (
          <>
            <p>
              Finish creating the account for <strong>{link.email}</strong>: enter the password you chose.
            </p>
            <ConfirmSignUpForm action={confirmSignUpAction} token={token} />
          </>
        ) : (
          <>
            <p className="alert error">{SIGN_UP_LINK_INVALID}</p>
            <p>
              <Link href="/sign-up">Sign up</Link> · <Link href="/sign-in">Sign in</Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
