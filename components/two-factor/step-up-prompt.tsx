"use client";

import { startTransition, useActionState, useId, useRef, useState, type ReactNode } from "react";

/**
 * useActionState for a dangerous action (privacy, API keys, roles, webhook endpoints): when it
 * answers `step_up_required`, `prompt` asks for the password (or, with two-factor on, a code),
 * confirms it with POST /api/auth/step-up, then sends the same form data again. Render
 * `prompt` outside the form (no nested forms).
 */
export function useStepUpAction<S extends { code?: string }>(
  action: (prev: S, form: FormData) => Promise<S>,
  initial: S,
): [state: S, formAction: (form: FormData) => void, prompt: ReactNode] {
  const last = useRef<FormData | null>(null);
  const [confirmedFor, setConfirmedFor] = useState<object | null>(null);
  const [state, formAction] = useActionState<S, FormData>(async (prev, form) => {
    last.current = form;
    return action(prev, form);
  }, initial as Awaited<S>);
  const prompt =
    state.code === "step_up_required" && confirmedFor !== state ? (
      <StepUpBox
        onConfirmed={() => {
          setConfirmedFor(state);
          const form = last.current;
          if (form) startTransition(() => formAction(form));
        }}
      />
    ) : null;
  return [state, formAction, prompt];
}

/** The password-or-code box; `onConfirmed` runs once the session is fresh again. */
export function StepUpBox({ onConfirmed }: { onConfirmed: () => void }) {
  const id = useId();
  const [secret, setSecret] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    setError(null);
    try {
      const response = await fetch("/api/auth/step-up", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ secret }),
      });
      if (response.ok) return onConfirmed();
      const body = (await response.json().catch(() => ({}))) as { error?: string };
      setError(body.error ?? "That did not work. Try again.");
    } catch {
      setError("That did not work. Try again.");
    } finally {
      setBusy(false);
    }
  }
  return (
    <div role="group" aria-labelledby={`${id}-title`} className="card stack step-up">
      <p id={`${id}-title`} style={{ margin: 0 }}>
        <strong>Confirm it is you</strong>
      </p>
      <div className="field">
        <label htmlFor={`${id}-secret`}>Your password, or a code from your authenticator app</label>
        <input
          id={`${id}-secret`}
          type="password"
          autoComplete="current-password"
          value={secret}
          onChange={(event) => setSecret(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              void confirm();
            }
          }}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
        />
        <span id={`${id}-error`} className="field-error" role="alert">
          {error}
        </span>
      </div>
      <div>
        <button type="button" onClick={() => void confirm()} disabled={busy || !secret}>
          {busy ? "Confirming…" : "Confirm and continue"}
        </button>
      </div>
    </div>
  );
}
