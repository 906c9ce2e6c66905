"use client";

import { StepUpDownload } from "@/components/two-factor/step-up-download";
import { useStepUpAction } from "@/components/two-factor/step-up-prompt";
import type { FormState } from "@/lib/http/form-state";
import { Field, SubmitButton } from "@/components/form-controls";

/**
 * The contact's privacy requests (GDPR art. 15 and 17): download everything stored about
 * them, or erase them after typing their address.
 */
export function PrivacyPanel({
  contactId,
  email,
  erase,
}: {
  contactId: string;
  email: string;
  erase: (prev: FormState, form: FormData) => Promise<FormState>;
}) {
  const [state, formAction, stepUp] = useStepUpAction<FormState>(erase, {});
  return (
    <section aria-labelledby="privacy-heading" className="card stack">
      <h2 id="privacy-heading" style={{ marginTop: 0 }}>
        Privacy requests
      </h2>
      <ExportLinks contactId={contactId} />
      <form action={formAction} className="stack" aria-label="Erase this contact">
        <p className="hint">
          Erasing deletes the contact with its tags, notes, registrations, consent history and form
          submissions; purchases, tasks and sent emails stay without anything that identifies the person. Only
          a salted hash of the address is kept, so a later import or purchase can tell you it was erased.
        </p>
        <Field label={`Type ${email} to confirm`} name="confirmation" state={state} autoComplete="off" />
        <SubmitButton className="danger" pendingLabel="Erasing…">
          Erase this contact
        </SubmitButton>
      </form>
      {stepUp}
    </section>
  );
}

/** The export downloads, behind a step-up (components/two-factor/step-up-download.tsx). */
function ExportLinks({ contactId }: { contactId: string }) {
  const base = `/api/contacts/${contactId}/privacy-export`;
  return (
    <p>
      <StepUpDownload className="button secondary" href={base} filename={`contact-${contactId}.zip`}>
        Export all data (ZIP: JSON and CSV)
      </StepUpDownload>{" "}
      <StepUpDownload href={`${base}?format=json`} filename={`contact-${contactId}.json`}>
        JSON only
      </StepUpDownload>
    </p>
  );
}
