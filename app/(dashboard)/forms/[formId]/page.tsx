import { captchaConfig } from "@/lib/forms/captcha";
import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { automationChoices, listFormAutomations } from "@/lib/automations/list-form-automations";
import { embedSnippets } from "@/lib/forms/embed-snippet";
import { isUuid } from "@/lib/forms/form-row";
import { getForm } from "@/lib/forms/list-forms";
import { ConfirmAction } from "@/components/confirm-action";
import { AddAutomationForm } from "@/components/forms/add-automation-form";
import { EmbedPanel } from "@/components/forms/embed-panel";
import { FormKeyPanel } from "@/components/forms/form-key-panel";
import { FormSettingsForm } from "@/components/forms/form-settings-form";
import {
  addAutomationAction,
  deleteFormAction,
  removeAutomationAction,
  rotateFormKeyAction,
  updateFormAction,
} from "../actions";

export const metadata: Metadata = { title: "Form" };

export default async function FormPage({ params }: { params: Promise<{ formId: string }> }) {
  const { formId } = await params;
  if (!isUuid(formId)) notFound();
  const ctx = await requireMember();
  const workspaceId = ctx.workspace.workspaceId;
  const data = await withUser(ctx.claims, async (db) => {
    const form = await getForm(db, { workspaceId, formId });
    if (!form) return null;
    return {
      form,
      automations: await listFormAutomations(db, { workspaceId, formId }),
      choices: await automationChoices(db, workspaceId),
    };
  });
  if (!data) notFound();
  const { form, automations, choices } = data;
  const canEdit = ADMIN_ROLES.includes(ctx.workspace.role);
  return (
    <>
      <p>
        <Link href="/forms">← Forms</Link>
      </p>
      <div className="topbar">
        <h1 style={{ margin: 0 }}>{form.name}</h1>
        <Link className="button secondary" href={`/forms/${form.id}/submissions`}>
          Submissions ({form.submissions})
        </Link>
      </div>

      <section className="card stack" aria-labelledby="settings-heading">
        <h2 id="settings-heading" style={{ margin: 0 }}>
          Settings
        </h2>
        {form.captcha_required && !captchaConfig() && (
          <div role="alert" className="alert error">
            This form requires a captcha, but no captcha provider is configured on this server
            (CAPTCHA_PROVIDER, CAPTCHA_SITE_KEY and CAPTCHA_SECRET_KEY): submissions without the form key are
            refused until one is, or until the bot check is turned off.
          </div>
        )}
        {canEdit ? (
          <FormSettingsForm
            action={updateFormAction.bind(null, form.id)}
            submitLabel="Save form"
            initial={{
              name: form.name,
              allowed_domains: form.allowed_domains.join("\n"),
              require_verification: form.require_verification,
              captcha_required: form.captcha_required,
              success_redirect_url: form.success_redirect_url ?? "",
            }}
          />
        ) : (
          <dl className="settings">
            <dt>Allowed domains</dt>
            <dd>{form.allowed_domains.length ? form.allowed_domains.join(", ") : "Any (open mode)"}</dd>
            <dt>Email verification</dt>
            <dd>{form.require_verification ? "Required for existing contacts" : "Off"}</dd>
            <dt>Bot check</dt>
            <dd>{form.captcha_required ? "Required" : "Off"}</dd>
            <dt>Success page</dt>
            <dd>{form.success_redirect_url ?? "None"}</dd>
          </dl>
        )}
      </section>

      <h2 id="key-heading">Form key</h2>
      <section className="card" aria-labelledby="key-heading">
        <FormKeyPanel
          hasKey={form.has_key}
          canEdit={canEdit}
          action={rotateFormKeyAction.bind(null, form.id)}
        />
      </section>

      <h2 id="embed-heading">Embed on your website</h2>
      <section className="card" aria-labelledby="embed-heading">
        <EmbedPanel snippets={embedSnippets(form, captchaConfig())} />
      </section>

      <h2 id="automations-heading">Automations</h2>
      <section className="card stack" aria-labelledby="automations-heading">
        {automations.length === 0 ? (
          <p className="hint">No automations: contacts from this form are only stored.</p>
        ) : (
          <table className="data">
            <caption className="sr-only">Automations of this form</caption>
            <thead>
              <tr>
                <th scope="col">Action</th>
                <th scope="col">Runs</th>
                {canEdit && <th scope="col">Remove</th>}
              </tr>
            </thead>
            <tbody>
              {automations.map((a) => (
                <tr key={a.id}>
                  <td>{a.name}</td>
                  <td>
                    {a.runs}
                    {a.failed_runs > 0 && <span className="badge bounced"> {a.failed_runs} failed</span>}
                  </td>
                  {canEdit && (
                    <td>
                      <ConfirmAction
                        action={removeAutomationAction.bind(null, form.id)}
                        fields={{ automationId: a.id }}
                        label="Remove"
                        className="secondary"
                        title="Remove this automation?"
                        body={`“${a.name}” will no longer run for new submissions. Its run history is deleted.`}
                        confirmLabel="Remove automation"
                      />
                    </td>
                  )}
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {canEdit && <AddAutomationForm action={addAutomationAction.bind(null, form.id)} choices={choices} />}
      </section>

      {canEdit && (
        <>
          <h2 id="danger-heading">Delete</h2>
          <section className="card stack" aria-labelledby="danger-heading">
            <p>Deleting the form removes its submissions and automations. Contacts stay.</p>
            <div>
              <ConfirmAction
                action={deleteFormAction.bind(null, form.id)}
                label="Delete form"
                title={`Delete “${form.name}”?`}
                body={`Its ${form.submissions} submissions and ${automations.length} automations are deleted, and websites using it can no longer submit. Contacts are kept.`}
                confirmLabel="Delete form"
              />
            </div>
          </section>
        </>
      )}
    </>
  );
}
