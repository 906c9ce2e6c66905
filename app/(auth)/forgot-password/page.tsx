import type { Metadata } from "next";
import { ForgotPasswordForm } from "@/components/auth-forms";
import { requestResetAction } from "../password-actions";

export const metadata: Metadata = { title: "Reset your password" };

export default function ForgotPasswordPage() {
  return (
    <main className="auth-page">
      <div className="card stack">
        <h1>Reset your password</h1>
        <p>Enter the email address of your account. We will send it a link to choose a new password.</p>
        <ForgotPasswordForm action={requestResetAction} />
      </div>
    </main>
  );
}
