"use client";

import { Field, SubmitButton } from "@/components/form-controls";
import { ActionForm } from "@/components/ui/action-form";
import type { FormAction } from "@/lib/http/form-state";

interface TopicValues {
  id?: string;
  key?: string;
  name?: string;
  description?: string;
  default_on?: boolean;
}

/**
 * One topic's form (docs/decisions.md, "Subscription topics"): a new topic has a key; an existing
 * one keeps it (links and the API name topics by it) and changes its name, description, default.
 */
export function TopicForm({ action, topic = {} }: { action: FormAction; topic?: TopicValues }) {
  const editing = Boolean(topic.id);
  const suffix = topic.id ?? "new";
  return (
    <ActionForm action={action} messageId={`topic-message-${suffix}`}>
      {(state) => (
        <>
          {editing && <input type="hidden" name="topicId" value={topic.id} />}
          <Field
            label="Name"
            name="name"
            state={state}
            defaultValue={state.values?.name ?? topic.name}
            required
          />
          {!editing && (
            <Field
              label="Key"
              name="key"
              state={state}
              hint="Lowercase letters, digits, '-' or '_', e.g. newsletter. Fixed once the topic exists."
              defaultValue={state.values?.key}
              required
            />
          )}
          <Field
            label="Description (optional)"
            name="description"
            state={state}
            hint="Shown to recipients in the preference centre."
            defaultValue={state.values?.description ?? topic.description}
          />
          <label className="row" style={{ gap: "0.5rem" }}>
            <input type="checkbox" name="defaultOn" defaultChecked={topic.default_on} />
            On by default: a subscribe that chooses no topic (manual, RSVP, payments) joins it
          </label>
          <SubmitButton>{editing ? "Save topic" : "Add topic"}</SubmitButton>
        </>
      )}
    </ActionForm>
  );
}
