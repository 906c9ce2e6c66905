import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth-forms";
import { signInAction } from "../actions";
import { safeNextPath } from "@/lib/auth/account-links";
import { currentMember } from "@/lib/auth/context";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<{ next?: string; reset?: string }>;
}) {
  const { next, reset } = await searchParams;
  const safeNext = safeNextPath(next) ?? undefined;
  if (await currentMember()) redirect(safeNext ?? "/");
  return (
    <main className="auth-page">
      <div className="card">
        <h1>Sign in</h1>
        <SignInForm
          action={signInAction}
          next={safeNext}
          notice={reset ? "Your password was changed. Sign in with the new one." : undefined}
        />
      </div>
    </main>
  );
}
