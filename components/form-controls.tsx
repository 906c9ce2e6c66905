"use client";

import { useId } from "react";
import { useFormStatus } from "react-dom";
import type { FormState } from "@/lib/http/form-state";
import { SelectOptions, type SelectOption } from "./filter-select";
import { StatusMessage } from "./ui/status-message";

/** What a field's control carries so that its label, hint and error are tied to it. */
export interface FieldControlProps {
  id: string;
  "aria-labelledby"?: string;
  "aria-describedby"?: string;
  "aria-invalid"?: true;
}

/**
 * The markup every field shares: the label, the control, then the hint and the error, both
 * tied to the control for screen readers (aria-describedby). `children` renders the control
 * with the props it is given. A control that is not a form element (a contenteditable region)
 * cannot be named by a <label>: with `labelAsText` the label is plain text the control points
 * at with aria-labelledby.
 */
export function FieldWrapper({
  label,
  hint,
  error,
  labelAsText = false,
  children,
}: {
  label: string;
  hint?: string;
  error?: string;
  labelAsText?: boolean;
  children: (control: FieldControlProps) => React.ReactNode;
}) {
  const id = useId();
  const described = [hint && `${id}-hint`, error && `${id}-error`].filter(Boolean).join(" ") || undefined;
  const control: FieldControlProps = {
    id,
    "aria-labelledby": labelAsText ? `${id}-label` : undefined,
    "aria-describedby": described,
    "aria-invalid": error ? true : undefined,
  };
  return (
    <div className="field">
      {labelAsText ? (
        <span id={`${id}-label`} className="label">
          {label}
        </span>
      ) : (
        <label htmlFor={id}>{label}</label>
      )}
      {children(control)}
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
  return (
    <FieldWrapper label={label} hint={hint} error={state?.errors?.[name]}>
      {(control) => (
        <input
          name={name}
          type={type}
          defaultValue={type === "password" ? undefined : state?.values?.[name]}
          {...control}
          {...rest}
        />
      )}
    </FieldWrapper>
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
  options: readonly SelectOption[];
} & React.SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <FieldWrapper label={label} hint={hint} error={state?.errors?.[name]}>
      {(control) => (
        <select name={name} defaultValue={state?.values?.[name]} {...control} {...rest}>
          <SelectOptions options={options} />
        </select>
      )}
    </FieldWrapper>
  );
}

/** A labelled checkbox (an on/off setting), the label after the box. */
export function Check({
  name,
  label,
  defaultChecked,
}: {
  name: string;
  label: string;
  defaultChecked: boolean;
}) {
  return (
    <label className="check">
      <input type="checkbox" name={name} defaultChecked={defaultChecked} />
      {label}
    </label>
  );
}

/**
 * The form-level message, announced when it appears. Give each form on a page its own
 * `id` (and point the form's aria-describedby at it).
 */
export function FormMessage({ state, id = "form-message" }: { state: FormState; id?: string }) {
  return <StatusMessage state={state} id={id} />;
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
