"use client";

import { useActionState } from "react";
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
  const [state, formAction] = useActionState(erase, {});
  return (
    <section aria-labelledby="privacy-heading" className="card stack">
      <h2 id="privacy-heading" style={{ marginTop: 0 }}>
        Privacy requests
      </h2>
      <p>
        <a className="button secondary" href={`/api/contacts/${contactId}/privacy-export`} download>
          Export all data (ZIP: JSON and CSV)
        </a>{" "}
        <a href={`/api/contacts/${contactId}/privacy-export?format=json`} download>
          JSON only
        </a>
      </p>
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
    </section>
  );
}
