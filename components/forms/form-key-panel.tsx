"use client";

import { useActionState, useId, useRef } from "react";
import type { KeyState } from "@/lib/forms/key-state";
import { SubmitButton } from "@/components/form-controls";
import { CopyButton } from "./copy-button";

/** Generate or rotate the form key (spec 5.1); the raw key is shown once, right here. */
export function FormKeyPanel({
  hasKey,
  canEdit,
  action,
}: {
  hasKey: boolean;
  canEdit: boolean;
  action: (state: KeyState) => Promise<KeyState>;
}) {
  const [state, formAction] = useActionState<KeyState>(action, {});
  const dialog = useRef<HTMLDialogElement>(null);
  const id = useId();
  const keySet = hasKey || Boolean(state.key);
  return (
    <div className="stack">
      <p>
        {keySet
          ? "This form has a key. Servers that send it (header x-api-key or query parameter api_key) skip the domain check and email verification."
          : "This form has no key yet. Generate one to submit from your own server."}
      </p>
      <div role="status" aria-live="polite">
        {state.message && <div className="alert error">{state.message}</div>}
        {state.key && (
          <div className="alert success stack">
            <strong>Copy the key now: it will not be shown again.</strong>
            <code data-testid="form-key" style={{ wordBreak: "break-all" }}>
              {state.key}
            </code>
            <div>
              <CopyButton text={state.key} label="Copy key" />
            </div>
          </div>
        )}
      </div>
      {canEdit &&
        (keySet ? (
          <>
            <div>
              <button type="button" className="secondary" onClick={() => dialog.current?.showModal()}>
                Rotate key
              </button>
            </div>
            <dialog ref={dialog} aria-labelledby={`${id}-title`}>
              <form action={formAction} onSubmit={() => dialog.current?.close()} className="stack">
                <h2 id={`${id}-title`} style={{ marginTop: 0 }}>
                  Rotate the form key?
                </h2>
                <p>The current key stops working at once. Servers using it must be given the new key.</p>
                <div className="row">
                  <SubmitButton className="danger" pendingLabel="Rotating…">
                    Rotate key
                  </SubmitButton>
                  <button
                    type="button"
                    className="secondary"
                    onClick={() => dialog.current?.close()}
                    autoFocus
                  >
                    Cancel
                  </button>
                </div>
              </form>
            </dialog>
          </>
        ) : (
          <form action={formAction}>
            <SubmitButton pendingLabel="Generating…">Generate key</SubmitButton>
          </form>
        ))}
    </div>
  );
}
