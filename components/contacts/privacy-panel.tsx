"use client";

import { useState } from "react";
import { StepUpBox, useStepUpAction } from "@/components/two-factor/step-up-prompt";
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

/**
 * The export downloads: fetched, so that a `step_up_required` answer asks for the password or
 * code and then downloads, instead of leaving the page for an error.
 */
function ExportLinks({ contactId }: { contactId: string }) {
  const [waiting, setWaiting] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  async function download(url: string, name: string) {
    setError(null);
    const response = await fetch(url);
    if (response.ok) {
      const link = document.createElement("a");
      link.href = URL.createObjectURL(await response.blob());
      link.download = name;
      link.click();
      URL.revokeObjectURL(link.href);
      return;
    }
    const body = (await response.json().catch(() => ({}))) as { error?: string; code?: string };
    if (body.code === "step_up_required") setWaiting(`${url}|${name}`);
    else setError(body.error ?? "The export could not be made.");
  }
  const base = `/api/contacts/${contactId}/privacy-export`;
  // a plain link without JavaScript; with it, fetched so a refusal can ask and retry
  const open = (event: React.MouseEvent, url: string, type: "zip" | "json") => {
    event.preventDefault();
    void download(url, `contact-${contactId}.${type}`);
  };
  return (
    <>
      <p>
        <a className="button secondary" href={base} download onClick={(event) => open(event, base, "zip")}>
          Export all data (ZIP: JSON and CSV)
        </a>{" "}
        <a
          href={`${base}?format=json`}
          download
          onClick={(event) => open(event, `${base}?format=json`, "json")}
        >
          JSON only
        </a>
      </p>
      {error && (
        <p className="alert error" role="alert">
          {error}
        </p>
      )}
      {waiting && (
        <StepUpBox
          onConfirmed={() => {
            const [url, name] = waiting.split("|");
            setWaiting(null);
            void download(url, name);
          }}
        />
      )}
    </>
  );
}
