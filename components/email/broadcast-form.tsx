"use client";

import { useActionState, useEffect, useState } from "react";
import { Field, FormMessage, SubmitButton } from "@/components/form-controls";
import type { ActionResult } from "@/lib/adapters/action-result";
import type { Audience } from "@/lib/email/broadcast-audience";
import type { FormState } from "@/lib/http/form-state";
import type { AbTest } from "@/lib/email/ab-test";
import type { BroadcastSender } from "@/lib/email/from-address";
import { AbTestFields } from "./ab-test-fields";
import { BroadcastSenderFields } from "./broadcast-sender-fields";
import { BroadcastTranslationFields } from "./broadcast-translation-fields";
import { EmailPreview } from "./email-preview";

const PREVIEW_DELAY_MS = 400;

/**
 * Compose or edit a broadcast: subject, a Markdown message in the workspace's branded layout with
 * merge tags, previewed live at desktop and mobile widths, and the audience from the contact
 * list's filters, and optionally its own sender.
 */
export function BroadcastForm({
  tags,
  sources,
  topics = [],
  segments = [],
  segmentId,
  verifiedDomains = [],
  create,
  preview,
  nonce,
  initial,
}: {
  tags: { id: string; name: string }[];
  sources: string[];
  /** the workspace's subscription topics (docs/decisions.md, "Subscription topics") */
  topics?: { id: string; name: string }[];
  /** saved segments (docs/decisions.md, "Segments"): the audience may be limited to one */
  segments?: { id: string; name: string }[];
  segmentId?: string;
  /** the workspace's verified sending domains: a broadcast's own From may be on these only */
  verifiedDomains?: string[];
  create: (prev: FormState, form: FormData) => Promise<FormState>;
  preview: (input: { body: string }) => Promise<ActionResult<{ html: string }>>;
  nonce: string | null;
  initial?: {
    subject: string;
    body: string;
    audience: Audience;
    abTest?: AbTest | null;
    sender?: BroadcastSender;
    /** the email in other languages as written, by code */
    translations?: Partial<Record<string, { subject: string; body: string }>>;
  };
}) {
  const [state, action] = useActionState<FormState, FormData>(create, {});
  const [body, setBody] = useState(state.values?.body ?? initial?.body ?? "");
  const [rendered, setRendered] = useState<{ html?: string; error?: string }>({});
  const bodyError = state.errors?.body;
  const audience = initial?.audience;

  useEffect(() => {
    let current = true;
    const timer = setTimeout(async () => {
      const result = await preview({ body }).catch(() => null);
      if (!current) return;
      if (result?.data) setRendered({ html: result.data.html });
      else
        setRendered({
          error: result?.errors?.body ?? result?.message ?? "The preview could not be made.",
        });
    }, PREVIEW_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [body, preview]);

  return (
    <form action={action} className="stack" noValidate aria-describedby="form-message">
      <FormMessage state={state} />
      <Field
        label="Subject"
        name="subject"
        state={state}
        required
        maxLength={200}
        defaultValue={state.values ? undefined : initial?.subject}
      />
      <input type="hidden" name="format" value="markdown" />
      <div className="field">
        <label htmlFor="broadcast-body">Message</label>
        <textarea
          id="broadcast-body"
          name="body"
          rows={12}
          value={body}
          onChange={(e) => setBody(e.target.value)}
          aria-invalid={bodyError ? true : undefined}
          aria-describedby={`broadcast-body-hint${bodyError ? " broadcast-body-error" : ""}`}
        />
        <span id="broadcast-body-hint" className="hint">
          Markdown: **bold**, *italic*, # heading, [link](https://…), - list. Merge tags:{" "}
          {'{{first_name | "friend"}}'}, {"{{last_name}}"}, {"{{email}}"}, {"{{city}}"}, {"{{country}}"}; the
          fallback shows when the contact has no value. Your logo, colours, postal address and the unsubscribe
          link are added from Settings → Email.
        </span>
        {bodyError && (
          <span id="broadcast-body-error" className="field-error">
            {bodyError}
          </span>
        )}
      </div>
      <BroadcastTranslationFields state={state} initial={initial?.translations ?? {}} />
      <section className="stack" aria-labelledby="preview-heading" aria-live="polite">
        <h2 id="preview-heading">Preview</h2>
        {rendered.error ? (
          <div className="alert error">{rendered.error}</div>
        ) : rendered.html ? (
          <EmailPreview html={rendered.html} nonce={nonce} />
        ) : (
          <p className="hint">The preview appears as you write.</p>
        )}
      </section>
      <fieldset className="stack">
        <legend>Audience</legend>
        {topics.length > 0 && (
          <label>
            Topic
            <select
              name="topicId"
              defaultValue={audience?.topicId ?? ""}
              aria-describedby="broadcast-topic-hint"
            >
              <option value="">Every subscribed contact</option>
              {topics.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.name}
                </option>
              ))}
            </select>
            <span id="broadcast-topic-hint" className="hint">
              Only the topic&apos;s subscribers receive it; its unsubscribe link leaves that topic only.
            </span>
            {state.errors?.topicId && <span className="field-error">{state.errors.topicId}</span>}
          </label>
        )}
        {tags.length > 0 && (
          <>
            <fieldset>
              <legend>Contacts with these tags (none: every contact)</legend>
              <TagChecks tags={tags} name="tagIds" checked={audience?.tagIds} />
              <div className="row">
                <label className="check">
                  <input
                    type="radio"
                    name="tagMode"
                    value="any"
                    defaultChecked={audience?.tagMode !== "all"}
                  />{" "}
                  any of them
                </label>
                <label className="check">
                  <input
                    type="radio"
                    name="tagMode"
                    value="all"
                    defaultChecked={audience?.tagMode === "all"}
                  />{" "}
                  all of them
                </label>
              </div>
            </fieldset>
            <fieldset>
              <legend>Leave out contacts with these tags</legend>
              <TagChecks tags={tags} name="excludeTagIds" checked={audience?.excludeTagIds} />
            </fieldset>
          </>
        )}
        <label>
          Source
          <select name="source" defaultValue={audience?.source ?? ""}>
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
            <select name="segmentId" defaultValue={segmentId ?? audience?.segmentId ?? ""}>
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
      <BroadcastSenderFields state={state} verifiedDomains={verifiedDomains} initial={initial?.sender} />
      <AbTestFields state={state} initial={initial?.abTest} />
      <SubmitButton pendingLabel="Saving…">Save and preview</SubmitButton>
    </form>
  );
}

/** One checkbox per tag, named for the audience list it fills (tags to include, or to leave out). */
function TagChecks({
  tags,
  name,
  checked,
}: {
  tags: { id: string; name: string }[];
  name: "tagIds" | "excludeTagIds";
  checked: readonly string[] | undefined;
}) {
  return tags.map((t) => (
    <label key={t.id} className="check">
      <input type="checkbox" name={name} value={t.id} defaultChecked={checked?.includes(t.id)} /> {t.name}
    </label>
  ));
}
