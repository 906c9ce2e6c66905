"use client";

import { useActionState } from "react";
import { saveEmailSettingsAction } from "@/app/(dashboard)/settings/email/actions";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";
import type { EmailSettings } from "@/lib/email/email-settings";
import type { FormState } from "@/lib/http/form-state";

/** Spec 4.8 footer toggle, message and link text; spec 4.7 tracking URL. */
export function EmailSettingsForm({ settings, canEdit }: { settings: EmailSettings; canEdit: boolean }) {
  const [state, action] = useActionState<FormState, FormData>(saveEmailSettingsAction, {});
  const v = state.values;
  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <fieldset className="stack" disabled={!canEdit}>
        <legend>Subscribe footer</legend>
        <p className="hint">
          Added to transactional email (receipts, confirmations) sent to contacts who may not receive
          marketing email, with a link to subscribe.
        </p>
        <label className="check">
          <input
            type="checkbox"
            name="subscribeFooterEnabled"
            defaultChecked={v ? v.subscribeFooterEnabled === "on" : settings.subscribe_footer_enabled}
          />{" "}
          Add the subscribe footer
        </label>
        <Field
          label="Footer message"
          name="subscribeFooterMessage"
          state={state}
          defaultValue={v ? undefined : settings.subscribe_footer_message}
          required
        />
        <Field
          label="Link text"
          name="subscribeFooterLinkText"
          state={state}
          defaultValue={v ? undefined : settings.subscribe_footer_link_text}
          required
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
          defaultValue={v ? undefined : (settings.tracking_url ?? "")}
        />
      </fieldset>
      {canEdit ? (
        <SubmitButton pendingLabel="Saving…">Save email settings</SubmitButton>
      ) : (
        <p className="hint">Only owners and admins can change these settings.</p>
      )}
    </form>
  );
}
