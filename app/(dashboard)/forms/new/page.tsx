import type { Metadata } from "next";
import { LANGUAGE_OPTIONS } from "@/lib/workspaces/default-locale";
import Link from "next/link";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { FormSettingsForm } from "@/components/forms/form-settings-form";
import { createFormAction } from "../actions";

export const metadata: Metadata = { title: "New form" };

export default async function NewFormPage() {
  const ctx = await requireMember();
  const canEdit = ADMIN_ROLES.includes(ctx.workspace.role);
  return (
    <>
      <p>
        <Link href="/forms">← Forms</Link>
      </p>
      <h1>New form</h1>
      <div className="card">
        {canEdit ? (
          <FormSettingsForm
            action={createFormAction}
            languages={LANGUAGE_OPTIONS}
            submitLabel="Create form"
            initial={{
              name: "",
              allowed_domains: "",
              require_verification: true,
              captcha_required: false,
              success_redirect_url: "",
              locale: "",
            }}
          />
        ) : (
          <p role="alert">Only owners and admins can create forms.</p>
        )}
      </div>
    </>
  );
}
