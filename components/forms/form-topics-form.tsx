"use client";

import { SubmitButton } from "@/components/form-controls";
import { ActionForm } from "@/components/ui/action-form";
import type { FormAction } from "@/lib/http/form-state";

/**
 * The topics a form's submissions subscribe to (docs/decisions.md, "Subscription topics"); none
 * ticked: the workspace's default topics.
 */
export function FormTopicsForm({
  action,
  topics,
  chosen,
}: {
  action: FormAction;
  topics: { id: string; name: string; default_on: boolean }[];
  chosen: string[];
}) {
  return (
    <ActionForm action={action} messageId="form-topics-message">
      {() => (
        <>
          <fieldset className="stack">
            <legend>A submission with consent subscribes to</legend>
            {topics.map((t) => (
              <label key={t.id} className="check">
                <input
                  type="checkbox"
                  name="topicIds[]"
                  value={t.id}
                  defaultChecked={chosen.includes(t.id)}
                />{" "}
                {t.name}
                {t.default_on && <span className="hint"> (on by default)</span>}
              </label>
            ))}
            <span className="hint">None ticked: the topics marked on by default.</span>
          </fieldset>
          <div>
            <SubmitButton>Save topics</SubmitButton>
          </div>
        </>
      )}
    </ActionForm>
  );
}
