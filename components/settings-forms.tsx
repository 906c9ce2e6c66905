"use client";

import { useActionState } from "react";
import { renameWorkspaceAction, updateProfileAction } from "@/app/(dashboard)/settings/actions";
import type { FormState } from "@/lib/http/form-state";
import type { Profile } from "@/lib/profiles/get-profile";
import { Field, FormMessage, SelectField, SubmitButton } from "./form-controls";

export function WorkspaceNameForm({ name }: { name: string }) {
  const [state, action] = useActionState<FormState, FormData>(renameWorkspaceAction, {});
  return (
    <form action={action} className="stack" noValidate aria-describedby="workspace-message">
      <FormMessage state={state} id="workspace-message" />
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
    </form>
  );
}

export function ProfileForm({ profile, timeZones }: { profile: Profile; timeZones: string[] }) {
  const [state, action] = useActionState<FormState, FormData>(updateProfileAction, {});
  const value = (key: "firstName" | "lastName" | "timezone") => state.values?.[key] ?? profile[key] ?? "";
  return (
    <form action={action} className="stack" noValidate aria-describedby="profile-message">
      <FormMessage state={state} id="profile-message" />
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
    </form>
  );
}
