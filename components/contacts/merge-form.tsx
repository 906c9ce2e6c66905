"use client";

import { ActionForm } from "@/components/ui/action-form";
import { SubmitButton } from "@/components/form-controls";
import type { FormAction, FormState } from "@/lib/http/form-state";

export interface MergeFieldView {
  key: string;
  label: string;
  a: string;
  b: string;
  /** the side checked at first: A's value, or B's when A has none */
  side: "a" | "b";
}

/**
 * Merging B into A (docs/decisions.md, "Merging contacts"): one group of two radio buttons per
 * field the contacts disagree on, each labelled with its value, then a confirmation box, since B
 * is deleted. The groups stack on a phone and show both values side by side on a wider screen.
 */
export function MergeForm({
  action,
  fields,
  same,
  aName,
  bName,
}: {
  action: FormAction<FormState>;
  fields: MergeFieldView[];
  same: string[];
  aName: string;
  bName: string;
}) {
  return (
    <ActionForm action={action} messageId="merge-message">
      {() => (
        <>
          {fields.length === 0 ? (
            <p>Both contacts hold the same values: nothing to choose.</p>
          ) : (
            fields.map((field) => (
              <fieldset key={field.key} className="card">
                <legend>{field.label}</legend>
                <div className="row" style={{ flexWrap: "wrap", gap: "1rem" }}>
                  {(["a", "b"] as const).map((side) => (
                    <label key={side} style={{ flex: "1 1 12rem" }}>
                      <input
                        type="radio"
                        name={field.key}
                        value={side}
                        defaultChecked={field.side === side}
                      />{" "}
                      <span className="muted">{side === "a" ? aName : bName}:</span>{" "}
                      {field[side] || <em>empty</em>}
                    </label>
                  ))}
                </div>
              </fieldset>
            ))
          )}
          {same.length > 0 && <p className="muted">The same on both: {same.join(", ")}.</p>}
          <p>
            Consent follows the stricter of the two: if either contact unsubscribed, the merged contact is
            unsubscribed; every suppression of either is kept. Tags, notes, submissions, purchases,
            registrations, emails and the consent history of {bName} move to {aName}.
          </p>
          <label>
            <input type="checkbox" name="confirm" required /> Delete {bName} after moving its records to{" "}
            {aName}. This cannot be undone.
          </label>
          <div className="row">
            <SubmitButton className="danger" pendingLabel="Merging…">
              Merge contacts
            </SubmitButton>
          </div>
        </>
      )}
    </ActionForm>
  );
}
