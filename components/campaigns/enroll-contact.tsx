"use client";

import { useActionState, useId } from "react";
import { SubmitButton } from "@/components/form-controls";
import { StatusMessage } from "@/components/ui/status-message";
import type { FormState } from "@/lib/http/form-state";

/**
 * "Enroll in campaign" on a contact's page: the workspace's active campaigns, those the contact
 * is in now shown but not offered. The refusal (already enrolled, archived meanwhile) reads
 * beside the choice.
 */
export function EnrollContact({
  campaigns,
  action,
}: {
  campaigns: { id: string; name: string; enrolled: boolean }[];
  action: (prev: FormState, form: FormData) => Promise<FormState>;
}) {
  const id = useId();
  const [state, formAction] = useActionState<FormState, FormData>(action, {});
  const open = campaigns.filter((c) => !c.enrolled);
  const inside = campaigns.filter((c) => c.enrolled);
  const error = state.errors?.campaignId;
  return (
    <section aria-labelledby={`${id}-heading`} className="stack">
      <h2 id={`${id}-heading`}>Campaigns</h2>
      {inside.length > 0 && <p>Enrolled now in: {inside.map((c) => c.name).join(", ")}.</p>}
      {campaigns.length === 0 ? (
        <p className="hint">No active campaign to enroll the contact in.</p>
      ) : open.length === 0 ? (
        <p className="hint">The contact is in every active campaign.</p>
      ) : (
        <form action={formAction} className="row" style={{ alignItems: "flex-end" }}>
          <div className="field">
            <label htmlFor={`${id}-campaign`}>Enroll in campaign</label>
            <select
              id={`${id}-campaign`}
              name="campaignId"
              required
              defaultValue=""
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            >
              <option value="" disabled>
                Choose a campaign
              </option>
              {open.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
            {error && (
              <span id={`${id}-error`} className="field-error">
                {error}
              </span>
            )}
          </div>
          <SubmitButton pendingLabel="Enrolling…">Enroll</SubmitButton>
        </form>
      )}
      <StatusMessage state={{ message: state.message, success: state.success }} />
    </section>
  );
}
