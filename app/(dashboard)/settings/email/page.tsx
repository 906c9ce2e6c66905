import type { Metadata } from "next";
import Link from "next/link";
import { EmailSettingsForm } from "@/components/email/email-settings-form";
import { BrandingForm } from "@/components/email/branding-form";
import { SendingDomains } from "@/components/email/sending-domains";
import { saveBrandingAction, saveEmailSettingsAction } from "./actions";
import {
  addSendingDomainAction,
  checkSendingDomainAction,
  removeSendingDomainAction,
  saveSenderAction,
} from "./sending-domain-actions";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { loadBranding } from "@/lib/email/branding";
import { getEmailSettings } from "@/lib/email/email-settings";
import { listSendingDomains } from "@/lib/email/sending-domains";
import { getSenderSettings } from "@/lib/email/from-address";

export const metadata: Metadata = { title: "Email settings" };

export default async function EmailSettingsPage() {
  const ctx = await requireMember();
  const { settings, branding, domains, sender } = await withUser(ctx.claims, async (db) => ({
    settings: await getEmailSettings(db, ctx.workspace.workspaceId),
    branding: await loadBranding(db, ctx.workspace.workspaceId),
    domains: await listSendingDomains(db, ctx.workspace.workspaceId),
    sender: await getSenderSettings(db, ctx.workspace.workspaceId),
  }));
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
      <div className="card">
        <SendingDomains
          domains={domains}
          sender={sender}
          canEdit={ADMIN_ROLES.includes(ctx.workspace.role)}
          addAction={addSendingDomainAction}
          checkAction={checkSendingDomainAction}
          removeAction={removeSendingDomainAction}
          senderAction={saveSenderAction}
        />
      </div>
      <div className="card">
        <BrandingForm
          action={saveBrandingAction}
          branding={branding}
          canEdit={ADMIN_ROLES.includes(ctx.workspace.role)}
        />
      </div>
    </div>
  );
}
