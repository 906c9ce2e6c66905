import type { Metadata } from "next";
import Link from "next/link";
import { ResetPasswordForm } from "@/components/auth-forms";
import { resetPasswordAction } from "../password-actions";
import { getClaims } from "@/lib/auth/session";
import { RESET_LINK_INVALID, resetLinkOpen } from "@/lib/auth/reset-password";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { withService } from "@/lib/db/doors";

export const metadata: Metadata = { title: "Choose a new password" };

/**
 * The reset link's page. Local: the link's token goes with the form. Supabase: its
 * recovery link (through /auth/confirm) signed the user in, and the form updates them.
 */
export default async function ResetPasswordPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const { token = "" } = await searchParams;
  const open = supabaseConfigured()
    ? Boolean(await getClaims())
    : await withService((db) => resetLinkOpen(db, token));
  return (
    <main className="auth-page">
      <div className="card stack">
        <h1>Choose a new password</h1>
        {open ? (
          <ResetPasswordForm action={resetPasswordAction} token={supabaseConfigured() ? undefined : token} />
        ) : (
          <>
            <p className="alert error">{RESET_LINK_INVALID}</p>
            <p>
              <Link href="/forgot-password">Ask for a new link</Link>
            </p>
          </>
        )}
      </div>
    </main>
  );
}
