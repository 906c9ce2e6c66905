"use client";

import { SubmitButton } from "@/components/form-controls";
import { ActionForm } from "@/components/ui/action-form";
import type { FormAction } from "@/lib/http/form-state";

export interface PreferenceTopic {
  id: string;
  name: string;
  description: string;
  subscribed: boolean;
}

/** The preference centre's texts, in the recipient's language (the page translates them). */
export interface PreferenceCentreLabels {
  legend: string;
  blocked: string;
  openLink: string;
  save: string;
  everything: string;
  saving: string;
}

/**
 * The preference centre (docs/decisions.md, "Subscription topics"): a checkbox per topic and
 * "Unsubscribe from everything". Two forms, each working without JavaScript's help beyond the
 * server action; what the person ticked stays on screen after saving. `lang` goes with each save,
 * so its answer is in the page's language (docs/decisions.md, "Recipient languages").
 */
export function PreferenceCentreForm({
  contactId,
  topics,
  blocked,
  signature,
  save,
  labels,
  lang,
}: {
  contactId: string;
  topics: PreferenceTopic[];
  /** a complaint or bounce: topics can only be left */
  blocked: boolean;
  /** the email link's signature; null: the link had only the contact id, so topics can only be left */
  signature: string | null;
  save: FormAction;
  labels: PreferenceCentreLabels;
  lang: string;
}) {
  return (
    <div className="stack">
      <ActionForm action={save} messageId="preferences-message">
        {() => (
          <>
            <input type="hidden" name="contactId" value={contactId} />
            <input type="hidden" name="lang" value={lang} />
            {signature && <input type="hidden" name="sig" value={signature} />}
            <fieldset className="stack" aria-describedby={blocked ? "preferences-blocked" : undefined}>
              <legend>{labels.legend}</legend>
              {topics.map((topic) => (
                <label key={topic.id} className="check">
                  <input type="checkbox" name="topics[]" value={topic.id} defaultChecked={topic.subscribed} />
                  <span>
                    <strong>{topic.name}</strong>
                    {topic.description && <span className="hint"> {topic.description}</span>}
                  </span>
                </label>
              ))}
              {blocked && (
                <p id="preferences-blocked" className="hint">
                  {labels.blocked}
                </p>
              )}
              {!blocked && !signature && <p className="hint">{labels.openLink}</p>}
            </fieldset>
            <SubmitButton pendingLabel={labels.saving}>{labels.save}</SubmitButton>
          </>
        )}
      </ActionForm>
      <ActionForm action={save} messageId="everything-message">
        {() => (
          <>
            <input type="hidden" name="contactId" value={contactId} />
            <input type="hidden" name="lang" value={lang} />
            <input type="hidden" name="everything" value="1" />
            <SubmitButton className="secondary" pendingLabel={labels.saving}>
              {labels.everything}
            </SubmitButton>
          </>
        )}
      </ActionForm>
    </div>
  );
}
