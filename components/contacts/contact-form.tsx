"use client";

import Link from "next/link";
import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";
import type { FormState } from "@/lib/http/form-state";
import { CustomFieldInputs, type CustomFieldInput } from "./custom-field-inputs";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/** Create and edit a contact; errors come back per field and are announced. */
export function ContactForm({
  action,
  initial,
  mode,
  cancelHref,
  customFields = [],
}: {
  action: Action;
  initial?: Record<string, string>;
  mode: "create" | "edit";
  cancelHref: string;
  /** the workspace's custom fields with the contact's values */
  customFields?: CustomFieldInput[];
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, { values: initial });
  return (
    <form action={formAction} className="card stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <Field label="Email" name="email" type="email" autoComplete="off" state={state} required />
      <div className="row">
        <Field label="First name" name="firstName" autoComplete="off" state={state} />
        <Field label="Last name" name="lastName" autoComplete="off" state={state} />
        <Field label="Phone" name="phone" type="tel" autoComplete="off" state={state} />
      </div>
      <fieldset className="stack">
        <legend>Address</legend>
        <Field label="Address line 1" name="addressLine1" state={state} />
        <Field label="Address line 2" name="addressLine2" state={state} />
        <div className="row">
          <Field label="City" name="city" state={state} />
          <Field label="State" name="state" state={state} />
          <Field label="Postal code" name="postalCode" state={state} />
          <Field label="Country" name="country" state={state} />
        </div>
      </fieldset>
      <fieldset className="stack">
        <legend>Birthday</legend>
        <div className="row">
          <Field label="Birth month" name="birthMonth" inputMode="numeric" hint="1 to 12" state={state} />
          <Field label="Birth day" name="birthDay" inputMode="numeric" hint="1 to 31" state={state} />
        </div>
        <span className="hint">Give both, or leave both empty.</span>
      </fieldset>
      <Field
        label="Language"
        name="locale"
        autoComplete="off"
        maxLength={35}
        hint="A language tag such as fr, es or de-AT: the forms, RSVP and unsubscribe pages and the emails this person gets use it. Empty: not known."
        state={state}
      />
      <CustomFieldInputs fields={customFields} state={state} />
      {mode === "create" && (
        <label className="check">
          <input type="checkbox" name="isSubscribed" defaultChecked={state.values?.isSubscribed === "on"} />
          <span>
            This person agreed to receive marketing email (recorded as &lsquo;Manual Consent&rsquo; with the
            time and your IP address)
          </span>
        </label>
      )}
      <div className="row">
        <SubmitButton pendingLabel={mode === "create" ? "Creating…" : "Saving…"}>
          {mode === "create" ? "Create contact" : "Save changes"}
        </SubmitButton>
        <Link href={cancelHref} className="button secondary">
          Cancel
        </Link>
      </div>
    </form>
  );
}
