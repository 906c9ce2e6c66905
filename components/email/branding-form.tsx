"use client";

import { Field, SubmitButton } from "@/components/form-controls";
import { ActionForm } from "@/components/ui/action-form";
import type { Branding } from "@/lib/email/branding";
import type { FormAction } from "@/lib/http/form-state";

/** The branded email layout's logo, colours and the postal address of its footer. */
export function BrandingForm({
  action,
  branding,
  canEdit,
}: {
  action: FormAction;
  branding: Branding;
  canEdit: boolean;
}) {
  return (
    <ActionForm action={action} messageId="branding-message">
      {(state) => {
        const stored = <T,>(value: T) => (state.values ? undefined : value);
        const addressError = state.errors?.postalAddress;
        return (
          <>
            <fieldset className="stack" disabled={!canEdit}>
              <legend>Branding</legend>
              <p className="hint">
                Broadcasts written in the editor use this layout. The law wants your postal address in every
                marketing email: a broadcast is not sent without it.
              </p>
              <Field
                label="Logo URL"
                name="brandLogoUrl"
                type="url"
                placeholder="https://example.com/logo.png"
                hint="An https:// image, shown 160 pixels wide; empty shows the workspace name."
                state={state}
                defaultValue={stored(branding.brand_logo_url ?? "")}
              />
              {(
                [
                  ["Header colour", "brandColor", branding.brand_color],
                  ["Link colour", "brandAccentColor", branding.brand_accent_color],
                ] as const
              ).map(([label, name, colour]) => (
                <Field
                  key={name}
                  label={label}
                  name={name}
                  type="color"
                  state={state}
                  defaultValue={stored(colour)}
                />
              ))}
              <div className="field">
                <label htmlFor="postal-address">Postal address</label>
                <textarea
                  id="postal-address"
                  name="postalAddress"
                  rows={3}
                  maxLength={500}
                  defaultValue={stored(branding.postal_address ?? "")}
                  aria-invalid={addressError ? true : undefined}
                  aria-describedby={addressError ? "postal-address-error" : undefined}
                />
                {addressError && (
                  <span id="postal-address-error" className="field-error">
                    {addressError}
                  </span>
                )}
              </div>
            </fieldset>
            {canEdit ? (
              <SubmitButton pendingLabel="Saving…">Save branding</SubmitButton>
            ) : (
              <p className="hint">Only owners and admins can change the branding.</p>
            )}
          </>
        );
      }}
    </ActionForm>
  );
}
