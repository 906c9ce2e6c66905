import type { Metadata } from "next";
import Link from "next/link";
import { EmailSettingsForm } from "@/components/email/email-settings-form";
import { saveEmailSettingsAction } from "./actions";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { getEmailSettings } from "@/lib/email/email-settings";

export const metadata: Metadata = { title: "Email settings" };

export default async function EmailSettingsPage() {
  const ctx = await requireMember();
  const settings = await withUser(ctx.claims, (db) => getEmailSettings(db, ctx.workspace.workspaceId));
  return (
    <div className="stack">
      <div className="topbar">
        <h1>Email settings</h1>
        <Link href="/settings/email/outbox">Outbox and email log</Link>
      </div>
      <div className="card">
        <EmailSettingsForm
          action={saveEmailSettingsAction}
          settings={settings!}
          canEdit={ADMIN_ROLES.includes(ctx.workspace.role)}
        />
      </div>
    </div>
  );
}
