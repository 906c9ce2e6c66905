import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { SignUpForm } from "@/components/auth-forms";
import { signUpAction } from "../actions";
import { currentMember } from "@/lib/auth/context";

export const metadata: Metadata = { title: "Create your account" };

export default async function SignUpPage() {
  if (await currentMember()) redirect("/");
  return (
    <main className="auth-page">
      <div className="card">
        <h1>Create your account</h1>
        <SignUpForm action={signUpAction} />
      </div>
    </main>
  );
}
