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
              <Field
                label="First name"
                name="firstName"
                autoComplete="given-name"
                state={state}
                defaultValue={value("firstName")}
              />
              <Field
                label="Last name"
                name="lastName"
                autoComplete="family-name"
                state={state}
                defaultValue={value("lastName")}
              />
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
