"use client";

import { ActionForm } from "@/components/ui/action-form";
import { SubmitButton } from "@/components/form-controls";
import type { FormAction } from "@/lib/http/form-state";

/** The owner's switch: members without a second factor are sent to set one up first. */
export function RequirementForm({ action, required }: { action: FormAction; required: boolean }) {
  return (
    <ActionForm action={action} messageId="requirement-message">
      {() => (
        <>
          <label className="checkbox">
            <input type="checkbox" name="required" defaultChecked={required} /> Members must use two-factor
            authentication
          </label>
          <p className="hint">
            A member without it is asked to set it up before they can use this workspace.
          </p>
          <div>
            <SubmitButton pendingLabel="Saving…">Save</SubmitButton>
          </div>
        </>
      )}
    </ActionForm>
  );
}
