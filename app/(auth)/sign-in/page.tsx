import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignInForm } from "@/components/auth-forms";
import { currentMember } from "@/lib/auth/context";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage() {
  if (await currentMember()) redirect("/");
  return (
    <main className="auth-page">
      <div className="card">
        <h1>Sign in</h1>
        <SignInForm />
      </div>
    </main>
  );
}
