"use client";

import { useActionState, useEffect, useId, useRef } from "react";
import { SubmitButton } from "@/components/form-controls";
import { StatusMessage } from "@/components/ui/status-message";
import type { TagRef } from "@/lib/contacts/types";
import type { FormState } from "@/lib/http/form-state";

/** A contact's tags: remove one, or add one by name (an unknown name creates the tag). */
export function TagEditor({
  tags,
  allTags,
  attach,
  detach,
}: {
  tags: TagRef[];
  allTags: string[];
  attach: (prev: FormState, form: FormData) => Promise<FormState>;
  detach: (tagId: string) => Promise<void>;
}) {
  const id = useId();
  const form = useRef<HTMLFormElement>(null);
  const [state, formAction] = useActionState<FormState, FormData>(attach, {});
  const error = state.errors?.name;
  useEffect(() => {
    if (state.success) form.current?.reset();
  }, [state]);
  return (
    <div className="stack">
      {tags.length === 0 ? (
        <p className="hint">No tags yet.</p>
      ) : (
        <ul className="row" style={{ listStyle: "none", padding: 0, margin: 0 }} aria-label="Tags">
          {tags.map((t) => (
            <li key={t.id} className="badge">
              {t.name}{" "}
              <form action={detach.bind(null, t.id)} style={{ display: "inline" }}>
                <button type="submit" className="link" aria-label={`Remove tag ${t.name}`}>
                  ×
                </button>
              </form>
            </li>
          ))}
        </ul>
      )}
      <form ref={form} action={formAction} className="row" style={{ alignItems: "flex-end" }}>
        <div className="field">
          <label htmlFor={id}>Add a tag</label>
          <input
            id={id}
            name="name"
            list={`${id}-list`}
            maxLength={100}
            autoComplete="off"
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
          />
          <datalist id={`${id}-list`}>
            {allTags.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
          {error && (
            <span id={`${id}-error`} className="field-error">
              {error}
            </span>
          )}
        </div>
        <SubmitButton pendingLabel="Adding…">Add tag</SubmitButton>
      </form>
      <StatusMessage state={{ success: state.success }} />
    </div>
  );
}
