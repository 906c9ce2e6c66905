"use client";

import { useActionState, useId } from "react";
import { completeTaskAction } from "@/app/(dashboard)/tasks/actions";
import type { FormState } from "@/lib/http/form-state";
import { SubmitButton } from "@/components/form-controls";

/** Complete a task, with an optional closing note. */
export function CompleteTaskForm({ taskId, title }: { taskId: string; title: string }) {
  const [state, action] = useActionState<FormState, FormData>(completeTaskAction, {});
  const id = useId();
  return (
    <form action={action} className="stack">
      <input type="hidden" name="taskId" value={taskId} />
      <label htmlFor={`${id}-note`}>
        Closing note <span className="hint">(optional)</span>
      </label>
      <textarea id={`${id}-note`} name="note" rows={2} maxLength={2000} />
      <div role="status" aria-live="polite">
        {state.message && <div className="alert error">{state.message}</div>}
      </div>
      <div>
        <SubmitButton pendingLabel="Completing…">
          Mark complete<span className="sr-only">: {title}</span>
        </SubmitButton>
      </div>
    </form>
  );
}
