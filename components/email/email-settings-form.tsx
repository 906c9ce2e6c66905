"use client";

import { Field, SubmitButton } from "@/components/form-controls";
import { ActionForm } from "@/components/ui/action-form";
import type { EmailSettings } from "@/lib/email/email-settings";
import type { FormAction } from "@/lib/http/form-state";

/** Spec 4.8 footer toggle, message and link text; spec 4.7 tracking URL; engagement tracking. */
export function EmailSettingsForm({
  action,
  settings,
  canEdit,
}: {
  action: FormAction;
  settings: EmailSettings;
  canEdit: boolean;
}) {
  return (
    <ActionForm action={action}>
      {(state) => {
        // after a refusal, the fields keep what was typed (the browser's own values)
        const stored = <T,>(value: T) => (state.values ? undefined : value);
        const checkbox = (name: string, saved: boolean, label: string) => (
          <label className="check">
            <input
              type="checkbox"
              name={name}
              defaultChecked={state.values ? state.values[name] === "on" : saved}
            />{" "}
            {label}
          </label>
        );
        const footerFields = [
          ["Footer message", "subscribeFooterMessage", settings.subscribe_footer_message],
          ["Link text", "subscribeFooterLinkText", settings.subscribe_footer_link_text],
        ] as const;
        return (
          <>
            <fieldset className="stack" disabled={!canEdit}>
              <legend>Subscribe footer</legend>
              <p className="hint">
                Added to transactional email (receipts, confirmations) sent to contacts who may not receive
                marketing email, with a link to subscribe.
              </p>
              {checkbox(
                "subscribeFooterEnabled",
                settings.subscribe_footer_enabled,
                "Add the subscribe footer",
              )}
              {footerFields.map(([label, name, value]) => (
                <Field
                  key={name}
                  label={label}
                  name={name}
                  state={state}
                  defaultValue={stored(value)}
                  required
                />
              ))}
            </fieldset>
            <fieldset className="stack" disabled={!canEdit}>
              <legend>Sender</legend>
              <p className="hint">
                Until a sending domain of yours is verified (below), your mail leaves from this app&apos;s
                address with your workspace&apos;s name as the sender name. Replies go to the address below;
                empty, they go to the From address.
              </p>
              <Field
                label="Reply-to address"
                name="replyTo"
                type="email"
                placeholder="hello@example.org"
                state={state}
                defaultValue={stored(settings.email_reply_to ?? "")}
              />
            </fieldset>
            <fieldset className="stack" disabled={!canEdit}>
              <legend>Link tracking</legend>
              <Field
                label="Tracking URL"
                name="trackingUrl"
                type="url"
                placeholder="https://links.example.com"
                hint="Unsubscribe links in marketing email use this address; empty uses this app's address."
                state={state}
                defaultValue={stored(settings.tracking_url ?? "")}
              />
            </fieldset>
            <fieldset className="stack" disabled={!canEdit}>
              <legend>Engagement tracking</legend>
              <p className="hint">
                Record when recipients open your broadcasts and click their links, as the email provider
                reports it. Off: deliveries, bounces, complaints and unsubscribes are still counted; opens and
                clicks are not stored at all.
              </p>
              {checkbox("emailTrackingEnabled", settings.email_tracking_enabled, "Track opens and clicks")}
            </fieldset>
            {canEdit ? (
              <SubmitButton pendingLabel="Saving…">Save email settings</SubmitButton>
            ) : (
              <p className="hint">Only owners and admins can change these settings.</p>
            )}
          </>
        );
      }}
    </ActionForm>
  );
}
