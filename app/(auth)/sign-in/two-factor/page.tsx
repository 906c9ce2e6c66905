import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { SecondStepForm } from "@/components/two-factor/second-step-form";
import { safeNextPath } from "@/lib/auth/account-links";
import { pendingSignIn } from "@/lib/auth/session";
import { supabaseConfigured } from "@/lib/auth/supabase-provider";
import { secondStepPendingSupabase } from "@/lib/auth/supabase-actions";
import { secondStepAction } from "../../two-factor-actions";

export const metadata: Metadata = { title: "Two-factor sign-in" };

/** After the password, for an account with a second factor: the code, or a recovery code. */
export default async function SecondStepPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const next = safeNextPath((await searchParams).next) ?? undefined;
  const pending = supabaseConfigured() ? await secondStepPendingSupabase() : Boolean(await pendingSignIn());
  if (!pending) redirect("/sign-in");
  return (
    <main className="auth-page">
      <div className="card">
        <h1>Two-factor sign-in</h1>
        <SecondStepForm action={secondStepAction} next={next} />
        <p className="hint">
          <Link href="/sign-in">Start again</Link>
        </p>
      </div>
    </main>
  );
}
