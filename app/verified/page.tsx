import type { Metadata } from "next";

export const metadata: Metadata = { title: "Details confirmed", robots: { index: false } };

/** Where a confirmed form submission lands when its form has no success URL (spec 4.3). */
export default function VerifiedPage() {
  return (
    <main className="auth-page">
      <div className="card stack">
        <h1>Thank you, your details are confirmed</h1>
        <p>Your form submission has been applied. You can close this page.</p>
      </div>
    </main>
  );
}
