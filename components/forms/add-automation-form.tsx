"use client";

import { useActionState, useId, useState } from "react";
import type { FormState } from "@/lib/http/form-state";
import type { AutomationChoices } from "@/lib/automations/list-form-automations";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";

type ActionType = "add_tag" | "enroll_campaign" | "create_task";

/** Adds an automation to the form: what happens to each contact the form sends in. */
export function AddAutomationForm({
  action,
  choices,
}: {
  action: (state: FormState, form: FormData) => Promise<FormState>;
  choices: AutomationChoices;
}) {
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  const [type, setType] = useState<ActionType>("add_tag");
  const id = useId();
  const select = (name: string, label: string, options: { id: string; name: string }[], none: string) => {
    const error = state.errors?.[name];
    return (
      <div className="field">
        <label htmlFor={`${id}-${name}`}>{label}</label>
        <select
          id={`${id}-${name}`}
          name={name}
          defaultValue=""
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-${name}-error` : undefined}
        >
          <option value="">{none}</option>
          {options.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
        {error && (
          <span id={`${id}-${name}-error`} className="field-error">
            {error}
          </span>
        )}
      </div>
    );
  };
  return (
    <form action={formAction} className="stack" noValidate>
      <FormMessage state={state} />
      <div className="field">
        <label htmlFor={`${id}-type`}>When this form is submitted</label>
        <select
          id={`${id}-type`}
          name="action_type"
          value={type}
          onChange={(e) => setType(e.target.value as ActionType)}
        >
          <option value="add_tag">Add a tag to the contact</option>
          <option value="enroll_campaign">Enroll the contact in a campaign</option>
          <option value="create_task">Create a follow-up task</option>
        </select>
      </div>
      {type === "add_tag" && (
        <div className="row">
          {select("tag_id", "Tag", choices.tags, "— new tag —")}
          <Field label="or a new tag named" name="new_tag" state={state} maxLength={100} />
        </div>
      )}
      {type === "enroll_campaign" && (
        <div className="row">
          {select("campaign_id", "Campaign", choices.campaigns, "— new campaign —")}
          <Field label="or a new campaign named" name="new_campaign" state={state} maxLength={100} />
        </div>
      )}
      {type === "create_task" && (
        <div className="row">
          <Field label="Task title" name="task_title" state={state} maxLength={200} required />
          <Field
            label="Due in (days)"
            name="due_in_days"
            type="number"
            min={0}
            max={365}
            defaultValue="1"
            state={state}
          />
        </div>
      )}
      {/* docs/decisions.md, "Segments": the action runs only for contacts in the segment when it fires */}
      {select("segment_id", "Only for contacts in the segment", choices.segments, "— every contact —")}
      <div>
        <SubmitButton pendingLabel="Adding…">Add automation</SubmitButton>
      </div>
    </form>
  );
}
