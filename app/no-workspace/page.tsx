import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { signOutAction } from "@/app/(auth)/actions";
import { createWorkspaceAction } from "@/app/(dashboard)/workspace-actions";
import { CreateWorkspaceForm } from "@/components/create-workspace-form";
import { SignOutForm } from "@/components/sign-out-form";
import { currentMember } from "@/lib/auth/context";
import { getClaims } from "@/lib/auth/session";

export const metadata: Metadata = { title: "No workspace" };

/** Where a signed-in user in no workspace lands (they left their last one, or were removed). */
export default async function NoWorkspacePage() {
  const claims = await getClaims();
  if (!claims) redirect("/sign-in");
  if (await currentMember()) redirect("/contacts");
  return (
    <main className="auth-page">
      <div className="card stack">
        <h1>You are not in a workspace</h1>
        <p>
          You are signed in as <strong>{claims.email}</strong> but belong to no workspace. Create one, or ask
          an owner or admin of an existing workspace to invite this email.
        </p>
        <CreateWorkspaceForm createAction={createWorkspaceAction} />
        <SignOutForm action={signOutAction} />
      </div>
    </main>
  );
}
