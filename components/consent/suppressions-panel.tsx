"use client";

import { useActionState } from "react";
import { addManualBlockAction, removeSuppressionAction } from "@/app/(dashboard)/consent/actions";
import { FormMessage, SubmitButton } from "@/components/form-controls";
import { LocalTime } from "@/components/local-time";
import type { FormState } from "@/lib/http/form-state";
import { DialogButton } from "./confirm-dialog";

export interface SuppressionItem {
  reason: string;
  created_at: Date | string;
}

const DESCRIPTION: Record<string, string> = {
  complaint: "Reported your email as spam. Permanent: blocks all email.",
  bounce: "Email could not be delivered. Blocks all email.",
  manual: "Blocked by an administrator. Blocks all email.",
  unsubscribe: "Unsubscribed. Blocks marketing email only.",
};

function RemoveForm({ contactId, reason, close }: { contactId: string; reason: string; close: () => void }) {
  const [state, action] = useActionState<FormState, FormData>(
    removeSuppressionAction.bind(null, contactId),
    {},
  );
  return (
    <form action={action} className="stack">
      <FormMessage state={state} />
      <p>
        Remove the <strong>{reason}</strong> suppression? Email that it blocks can then be sent to this
        contact again.
      </p>
      <input type="hidden" name="reason" value={reason} />
      <div className="row">
        <SubmitButton className="danger" pendingLabel="Removing…">
          Remove suppression
        </SubmitButton>
        <button type="button" className="secondary" onClick={close}>
          {state.success ? "Close" : "Cancel"}
        </button>
      </div>
    </form>
  );
}

/** Spec 2.6 in the dashboard: each suppression with reason and date, remove (never a complaint), add a manual block. */
export function SuppressionsPanel({
  contactId,
  suppressions,
}: {
  contactId: string;
  suppressions: SuppressionItem[];
}) {
  const [blockState, block] = useActionState<FormState>(addManualBlockAction.bind(null, contactId), {});
  const blocked = suppressions.some((s) => s.reason === "manual");
  return (
    <section className="card stack" aria-labelledby={`suppressions-${contactId}`}>
      <h2 id={`suppressions-${contactId}`}>Suppressions</h2>
      <FormMessage state={blockState} />
      {suppressions.length === 0 ? (
        <p className="hint">No suppressions: eligibility depends on the subscription alone.</p>
      ) : (
        <table className="data">
          <caption className="sr-only">Suppressions of this contact</caption>
          <thead>
            <tr>
              <th scope="col">Reason</th>
              <th scope="col">Since</th>
              <th scope="col">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {suppressions.map((s) => (
              <tr key={s.reason}>
                <td>
                  <strong>{s.reason}</strong>
                  <div className="hint">{DESCRIPTION[s.reason]}</div>
                </td>
                <td>
                  <LocalTime value={s.created_at} />
                </td>
                <td>
                  {s.reason === "complaint" ? (
                    <span className="hint">Permanent</span>
                  ) : (
                    <DialogButton
                      label={
                        <>
                          Remove<span className="sr-only"> {s.reason} suppression</span>
                        </>
                      }
                      title={`Remove the ${s.reason} suppression`}
                      className="secondary"
                    >
                      {(close) => <RemoveForm contactId={contactId} reason={s.reason} close={close} />}
                    </DialogButton>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!blocked && (
        <form action={block} className="row">
          <SubmitButton className="secondary" pendingLabel="Blocking…">
            Block all email
          </SubmitButton>
          <span className="hint">
            Adds a manual suppression: no marketing or transactional email is sent.
          </span>
        </form>
      )}
    </section>
  );
}
