import type { FormState } from "@/lib/http/form-state";
import { LANGUAGE_NAMES } from "@/lib/i18n/language-names";

/**
 * The composer's "Other languages" (docs/decisions.md, "Recipient languages"): a subject and message per
 * language, in the same Markdown as the message above; a contact whose language is one of these gets it,
 * everyone else the email above. A language left empty is not sent.
 */
export function BroadcastTranslationFields({
  state,
  initial,
}: {
  state: FormState;
  initial: Partial<Record<string, { subject: string; body: string }>>;
}) {
  const values = state.values as Record<string, string> | undefined;
  const written = LANGUAGE_NAMES.filter(
    ({ code }) =>
      initial[code] || values?.[`translationSubject_${code}`] || values?.[`translationBody_${code}`],
  ).length;
  const sectionError = state.errors?.translations;
  return (
    <details className="stack" open={written > 0 || Boolean(sectionError)}>
      <summary>Other languages ({written})</summary>
      <p className="hint" id="broadcast-translations-hint">
        A contact whose language is one of these gets its subject and message; everyone else gets the email
        above. Leave a language empty to send it the email above. Not with an A/B test.
      </p>
      {sectionError && <span className="field-error">{sectionError}</span>}
      {LANGUAGE_NAMES.map(({ code, name }) => {
        const bodyError = state.errors?.[`translations.${code}.body`];
        return (
          <fieldset key={code} className="stack">
            <legend>{name}</legend>
            <div className="field">
              <label htmlFor={`translation-subject-${code}`}>{name} subject line</label>
              <input
                id={`translation-subject-${code}`}
                name={`translationSubject_${code}`}
                maxLength={200}
                lang={code}
                defaultValue={values ? values[`translationSubject_${code}`] : initial[code]?.subject}
              />
            </div>
            <div className="field">
              <label htmlFor={`translation-body-${code}`}>{name} text</label>
              <textarea
                id={`translation-body-${code}`}
                name={`translationBody_${code}`}
                rows={6}
                lang={code}
                defaultValue={values ? values[`translationBody_${code}`] : initial[code]?.body}
                aria-invalid={bodyError ? true : undefined}
                aria-describedby={
                  bodyError ? `translation-body-${code}-error` : "broadcast-translations-hint"
                }
              />
              {bodyError && (
                <span id={`translation-body-${code}-error`} className="field-error">
                  {bodyError}
                </span>
              )}
            </div>
          </fieldset>
        );
      })}
    </details>
  );
}
