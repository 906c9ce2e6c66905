"use client";

import { useActionState, useId } from "react";
import type { FormState } from "@/lib/http/form-state";
import { SubmitButton } from "@/components/form-controls";

/**
 * Complete a task, with an optional closing note. The task's id goes as a hidden field, so
 * every row of a long list shares one server action (a bound action is encrypted per row).
 */
export function CompleteTaskForm({
  action: complete,
  taskId,
  title,
}: {
  action: (prev: FormState, form: FormData) => Promise<FormState>;
  taskId: string;
  title: string;
}) {
  const [state, action] = useActionState<FormState, FormData>(complete, {});
  const error = state.message ?? state.errors?.note;
  const id = useId();
  return (
    <form action={action} className="stack">
      <input type="hidden" name="taskId" value={taskId} />
      <label htmlFor={`${id}-note`}>
        Closing note <span className="hint">(optional)</span>
      </label>
      <textarea id={`${id}-note`} name="note" rows={2} maxLength={2000} />
      <div role="status" aria-live="polite">
        {error && <div className="alert error">{error}</div>}
      </div>
      <div>
        <SubmitButton pendingLabel="Completing…">
          Mark complete<span className="sr-only">: {title}</span>
        </SubmitButton>
      </div>
    </form>
  );
}
