import type { Metadata } from "next";
import { LANGUAGE_OPTIONS } from "@/lib/workspaces/default-locale";
import { captchaConfig } from "@/lib/forms/captcha";
import Link from "next/link";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { automationChoices, listFormAutomations } from "@/lib/automations/list-form-automations";
import { embedSnippets } from "@/lib/forms/embed-snippet";
import { ConfirmAction } from "@/components/confirm-action";
import { AddAutomationForm } from "@/components/forms/add-automation-form";
import { EmbedPanel } from "@/components/forms/embed-panel";
import { FormKeyPanel } from "@/components/forms/form-key-panel";
import { FormSettingsForm } from "@/components/forms/form-settings-form";
import { DataTable } from "@/components/ui/data-table";
import { Section } from "@/components/ui/section";
import {
  addAutomationAction,
  deleteFormAction,
  removeAutomationAction,
  rotateFormKeyAction,
  updateFormAction,
  updateFormTopicsAction,
} from "../actions";
import { listTopics } from "@/lib/consent/topics";
import { getFormTopicIds } from "@/lib/forms/form-topics";
import { FormTopicsForm } from "@/components/forms/form-topics-form";
import { loadForm } from "./load-form";

export const metadata: Metadata = { title: "Form" };

export default async function FormPage({ params }: { params: Promise<{ formId: string }> }) {
  const { ctx, form, data } = await loadForm((await params).formId, async (db, input) => ({
    automations: await listFormAutomations(db, input),
    choices: await automationChoices(db, input.workspaceId),
    topics: await listTopics(db, input.workspaceId),
    topicIds: await getFormTopicIds(db, input),
  }));
  const { automations, choices, topics, topicIds } = data;
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

      <Section id="settings-heading" title="Settings">
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
            languages={LANGUAGE_OPTIONS}
            submitLabel="Save form"
            initial={{
              name: form.name,
              allowed_domains: form.allowed_domains.join("\n"),
              require_verification: form.require_verification,
              captcha_required: form.captcha_required,
              success_redirect_url: form.success_redirect_url ?? "",
              locale: form.locale ?? "",
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
      </Section>

      {topics.length > 0 && (
        <Section id="topics-heading" title="Subscription topics">
          {canEdit ? (
            <FormTopicsForm
              action={updateFormTopicsAction.bind(null, form.id)}
              topics={topics}
              chosen={topicIds}
            />
          ) : (
            <p>
              {topicIds.length
                ? topics
                    .filter((t) => topicIds.includes(t.id))
                    .map((t) => t.name)
                    .join(", ")
                : "The topics on by default."}
            </p>
          )}
        </Section>
      )}

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
          <DataTable
            rows={automations}
            columns={["Action", "Runs", "Remove"]}
            caption="Automations of this form"
          >
            {(a) => (
              <tr key={a.id}>
                <td>{a.name}</td>
                <td>
                  {a.runs}
                  {a.failed_runs > 0 && <span className="badge bounced"> {a.failed_runs} failed</span>}
                  {a.skipped_runs > 0 && (
                    <span className="badge"> {a.skipped_runs} skipped (not in segment)</span>
                  )}
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
            )}
          </DataTable>
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
