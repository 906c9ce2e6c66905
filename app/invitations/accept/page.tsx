import type { Metadata } from "next";
import Link from "next/link";
import { signOutAction } from "@/app/(auth)/actions";
import { AcceptInvitationForm } from "@/components/accept-invitation-form";
import { SignOutForm } from "@/components/sign-out-form";
import { getClaims } from "@/lib/auth/session";
import { acceptInvitationAction } from "./actions";
import { withService } from "@/lib/db/doors";
import { findInvitation, INVITATION_INVALID } from "@/lib/workspaces/accept-invitation";

export const metadata: Metadata = { title: "Invitation" };

/** An invitation link's page, where the invited person accepts (docs/decisions.md, "Invitations instead of direct adds"). */
export default async function AcceptInvitationPage({
  searchParams,
}: {
  searchParams: Promise<{ token?: string }>;
}) {
  const { token = "" } = await searchParams;
  const [invitation, claims] = await Promise.all([
    withService((db) => findInvitation(db, token)),
    getClaims(),
  ]);
  const here = `/invitations/accept?token=${encodeURIComponent(token)}`;
  return (
    <main className="auth-page">
      <div className="card stack">
        <h1>Invitation</h1>
        {!invitation ? (
          <p className="alert error">{INVITATION_INVALID}</p>
        ) : !claims ? (
          <>
            <p>
              You are invited to join <strong>{invitation.workspaceName}</strong> as {invitation.role}. Sign
              in as <strong>{invitation.email}</strong> to accept.
            </p>
            <p>
              <Link href={`/sign-in?next=${encodeURIComponent(here)}`}>Sign in to accept</Link>
            </p>
            <p className="hint">
              No account yet? <Link href="/sign-up">Create one</Link> with {invitation.email}, confirm it,
              then open this invitation link again.
            </p>
          </>
        ) : claims.email?.toLowerCase() !== invitation.email ? (
          <>
            <p className="alert error">
              This invitation is for {invitation.email}, and you are signed in as {claims.email}. Sign out and
              sign in with the invited address.
            </p>
            <SignOutForm action={signOutAction} />
          </>
        ) : (
          <>
            <p>
              You are invited to join <strong>{invitation.workspaceName}</strong> as {invitation.role}.
            </p>
            <AcceptInvitationForm
              token={token}
              workspaceName={invitation.workspaceName}
              acceptAction={acceptInvitationAction}
            />
          </>
        )}
      </div>
    </main>
  );
}
