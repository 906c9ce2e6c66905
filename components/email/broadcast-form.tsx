"use client";

import { useActionState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";
import type { FormState } from "@/lib/http/form-state";

/** Compose a broadcast: subject, plain-text message, audience from the contact list's filters. */
export function BroadcastForm({
  tags,
  sources,
  segments = [],
  segmentId,
  create,
}: {
  tags: { id: string; name: string }[];
  sources: string[];
  /** saved segments (docs/decisions.md, "Segments"): the audience may be limited to one */
  segments?: { id: string; name: string }[];
  segmentId?: string;
  create: (prev: FormState, form: FormData) => Promise<FormState>;
}) {
  const [state, action] = useActionState<FormState, FormData>(create, {});
  const bodyError = state.errors?.body;
  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <Field label="Subject" name="subject" state={state} required maxLength={200} />
      <div className="field">
        <label htmlFor="broadcast-body">Message</label>
        <textarea
          id="broadcast-body"
          name="body"
          rows={10}
          defaultValue={state.values?.body}
          aria-invalid={bodyError ? true : undefined}
          aria-describedby={`broadcast-body-hint${bodyError ? " broadcast-body-error" : ""}`}
        />
        <span id="broadcast-body-hint" className="hint">
          Plain text; a blank line starts a paragraph. Write {"{{unsubscribe_url}}"} where the unsubscribe
          link should go, or it is added at the end.
        </span>
        {bodyError && (
          <span id="broadcast-body-error" className="field-error">
            {bodyError}
          </span>
        )}
      </div>
      <fieldset className="stack">
        <legend>Audience</legend>
        {tags.length > 0 && (
          <>
            <fieldset>
              <legend>Contacts with these tags (none: every contact)</legend>
              {tags.map((t) => (
                <label key={t.id} className="check">
                  <input type="checkbox" name="tagIds" value={t.id} /> {t.name}
                </label>
              ))}
              <div className="row">
                <label className="check">
                  <input type="radio" name="tagMode" value="any" defaultChecked /> any of them
                </label>
                <label className="check">
                  <input type="radio" name="tagMode" value="all" /> all of them
                </label>
              </div>
            </fieldset>
            <fieldset>
              <legend>Leave out contacts with these tags</legend>
              {tags.map((t) => (
                <label key={t.id} className="check">
                  <input type="checkbox" name="excludeTagIds" value={t.id} /> {t.name}
                </label>
              ))}
            </fieldset>
          </>
        )}
        <label>
          Source
          <select name="source" defaultValue="">
            <option value="">Any source</option>
            {sources.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        {segments.length > 0 && (
          <label>
            Segment
            <select name="segmentId" defaultValue={segmentId ?? ""}>
              <option value="">No segment</option>
              {segments.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <p className="hint">
          Only subscribed contacts receive it; you see who is skipped, and why, before sending.
        </p>
      </fieldset>
      <SubmitButton pendingLabel="Saving…">Save and preview</SubmitButton>
    </form>
  );
}
