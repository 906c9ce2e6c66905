"use client";

import { ActionForm } from "@/components/ui/action-form";
import type { FormAction } from "@/lib/http/form-state";
import type { Profile } from "@/lib/profiles/get-profile";
import { Field, SelectField, SubmitButton } from "./form-controls";

export function WorkspaceNameForm({ action, name }: { action: FormAction; name: string }) {
  return (
    <ActionForm action={action} messageId="workspace-message">
      {(state) => (
        <>
          <Field
            label="Workspace name"
            name="name"
            state={state}
            defaultValue={state.values?.name ?? name}
            required
            maxLength={200}
          />
          <div>
            <SubmitButton>Save workspace name</SubmitButton>
          </div>
        </>
      )}
    </ActionForm>
  );
}

/**
 * The workspace's default language: recipient pages and emails use it when neither the link, the
 * contact nor the browser names a shipped language (docs/decisions.md, "Recipient languages").
 */
export function WorkspaceLanguageForm({
  action,
  locale,
  options,
}: {
  action: FormAction;
  locale: string;
  options: readonly { value: string; label: string }[];
}) {
  return (
    <ActionForm action={action} messageId="language-message">
      {(state) => (
        <>
          <SelectField
            label="Default language for recipients"
            name="locale"
            hint="Forms, RSVP and unsubscribe pages and their emails use it when the contact's or the browser's language is not offered."
            state={state}
            options={options}
            defaultValue={state.values?.locale ?? locale}
          />
          <div>
            <SubmitButton>Save language</SubmitButton>
          </div>
        </>
      )}
    </ActionForm>
  );
}

/** The profile's name fields, with their autocomplete tokens. */
const NAME_FIELDS = [
  { name: "firstName", label: "First name", autoComplete: "given-name" },
  { name: "lastName", label: "Last name", autoComplete: "family-name" },
] as const;

export function ProfileForm({
  action,
  profile,
  timeZones,
}: {
  action: FormAction;
  profile: Profile;
  timeZones: string[];
}) {
  return (
    <ActionForm action={action} messageId="profile-message">
      {(state) => {
        const value = (key: "firstName" | "lastName" | "timezone") =>
          state.values?.[key] ?? profile[key] ?? "";
        return (
          <>
            <div className="row">
              {NAME_FIELDS.map((field) => (
                <Field key={field.name} {...field} state={state} defaultValue={value(field.name)} />
              ))}
            </div>
            <SelectField
              label="Time zone"
              name="timezone"
              hint="Dates and times in the dashboard are shown in this zone."
              state={state}
              options={timeZones}
              defaultValue={value("timezone")}
            />
            <div>
              <SubmitButton>Save profile</SubmitButton>
            </div>
          </>
        );
      }}
    </ActionForm>
  );
}
