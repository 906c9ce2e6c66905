"use client";

import { useActionState, useState } from "react";
import { SubmitButton } from "@/components/form-controls";
import { StatusMessage } from "@/components/ui/status-message";
import { DateTime } from "@/components/ui/date-time";
import type { FormState } from "@/lib/http/form-state";
import { Dialog } from "@/components/ui/dialog";
import { ACTIONS_COLUMN, DataTable } from "@/components/ui/data-table";

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

type FormAction = (prev: FormState, form: FormData) => Promise<FormState>;

function RemoveForm({
  remove,
  reason,
  close,
  onDone,
}: {
  remove: FormAction;
  reason: string;
  close: () => void;
  onDone: (state: FormState) => void;
}) {
  const [state, action] = useActionState<FormState, FormData>(async (prev, form) => {
    const result = await remove(prev, form);
    if (result.success) {
      onDone(result);
      close();
    }
    return result;
  }, {});
  return (
    <form action={action} className="stack">
      <StatusMessage state={state} />
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
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Spec 2.6 in the dashboard: each suppression with reason and date, remove (never a complaint), add a manual block. */
export function SuppressionsPanel({
  contactId,
  suppressions,
  timeZone,
  remove,
  block: blockAction,
}: {
  contactId: string;
  /** removes the suppression named by the form's reason, bound to the contact by the page */
  remove: FormAction;
  /** adds the manual block, bound to the contact by the page */
  block: (prev: FormState) => Promise<FormState>;
  suppressions: SuppressionItem[];
  timeZone: string;
}) {
  const [notice, setNotice] = useState<FormState>({});
  const [, block] = useActionState<FormState>(async (prev) => {
    const result = await blockAction(prev);
    setNotice(result);
    return result;
  }, {});
  const blocked = suppressions.some((s) => s.reason === "manual");
  return (
    <section className="card stack" aria-labelledby={`suppressions-${contactId}`}>
      <h2 id={`suppressions-${contactId}`}>Suppressions</h2>
      <StatusMessage state={notice} />
      {suppressions.length === 0 ? (
        <p className="hint">No suppressions: eligibility depends on the subscription alone.</p>
      ) : (
        <DataTable
          rows={suppressions}
          columns={["Reason", "Since", ACTIONS_COLUMN]}
          caption="Suppressions of this contact"
        >
          {(s) => (
            <tr key={s.reason}>
              <td>
                <strong>{s.reason}</strong>
                <div className="hint">{DESCRIPTION[s.reason]}</div>
              </td>
              <td>
                <DateTime value={s.created_at} timeZone={timeZone} />
              </td>
              <td>
                {s.reason === "complaint" ? (
                  <span className="hint">Permanent</span>
                ) : (
                  <Dialog
                    label={
                      <>
                        Remove<span className="sr-only"> {s.reason} suppression</span>
                      </>
                    }
                    title={`Remove the ${s.reason} suppression`}
                    className="secondary"
                  >
                    {(close) => (
                      <RemoveForm remove={remove} reason={s.reason} close={close} onDone={setNotice} />
                    )}
                  </Dialog>
                )}
              </td>
            </tr>
          )}
        </DataTable>
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
