import type { Metadata } from "next";
import Link from "next/link";
import { RequirementForm } from "@/components/two-factor/requirement-form";
import { requireMember } from "@/lib/auth/context";
import { withService } from "@/lib/db/doors";
import { requiresTwoFactor } from "@/lib/two-factor/workspace-requirement";
import { setTwoFactorRequirementAction } from "./actions";

export const metadata: Metadata = { title: "Security" };

/** The workspace's "members must use two-factor" setting (owners change it). */
export default async function WorkspaceSecurityPage() {
  const ctx = await requireMember();
  const required = await withService((db) => requiresTwoFactor(db, ctx.workspace.workspaceId));
  const owner = ctx.workspace.role === "owner";
  return (
    <>
      <p className="hint">
        <Link href="/settings">Settings</Link> / Security
      </p>
      <h1>Security</h1>
      <section className="card stack" aria-labelledby="requirement-heading">
        <h2 id="requirement-heading" style={{ marginTop: 0 }}>
          Two-factor authentication
        </h2>
        <p>
          Your own second factor: <Link href="/account/security">account security</Link>.
        </p>
        {owner ? (
          <RequirementForm action={setTwoFactorRequirementAction} required={required} />
        ) : (
          <p>
            Members of this workspace {required ? "must" : "need not"} use two-factor authentication. Only
            owners can change this.
          </p>
        )}
      </section>
    </>
  );
}
