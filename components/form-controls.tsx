"use client";

import { useId } from "react";
import { useFormStatus } from "react-dom";
import type { FormState } from "@/lib/http/form-state";

/** A labelled input whose error is tied to it for screen readers (aria-describedby). */
export function Field({
  label,
  name,
  state,
  hint,
  type = "text",
  ...rest
}: {
  label: string;
  name: string;
  state?: FormState;
  hint?: string;
} & React.InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  const error = state?.errors?.[name];
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={name}
        type={type}
        defaultValue={type === "password" ? undefined : state?.values?.[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...rest}
      />
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/** A labelled select whose error is tied to it for screen readers, like Field. */
export function SelectField({
  label,
  name,
  state,
  hint,
  options,
  ...rest
}: {
  label: string;
  name: string;
  state?: FormState;
  hint?: string;
  options: readonly (string | { value: string; label: string })[];
} & React.SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  const error = state?.errors?.[name];
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        defaultValue={state?.values?.[name]}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        {...rest}
      >
        {options.map((option) => {
          const { value, label: text } =
            typeof option === "string" ? { value: option, label: option } : option;
          return (
            <option key={value} value={value}>
              {text}
            </option>
          );
        })}
      </select>
      {hint && (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      )}
      {error && (
        <span id={`${id}-error`} className="field-error">
          {error}
        </span>
      )}
    </div>
  );
}

/**
 * The form-level message, announced when it appears. Give each form on a page its own
 * `id` (and point the form's aria-describedby at it).
 */
export function FormMessage({ state, id = "form-message" }: { state: FormState; id?: string }) {
  return (
    <div id={id} role="status" aria-live="polite">
      {state.message && <div className="alert error">{state.message}</div>}
      {state.success && <div className="alert success">{state.success}</div>}
    </div>
  );
}

export function SubmitButton({
  children,
  pendingLabel,
  className,
}: {
  children: React.ReactNode;
  pendingLabel?: string;
  className?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button type="submit" disabled={pending} aria-disabled={pending} className={className}>
      {pending ? (pendingLabel ?? "Saving…") : children}
    </button>
  );
}
