"use client";

import { useActionState } from "react";
import { ConfirmAction } from "@/components/confirm-action";
import { SubmitButton } from "@/components/form-controls";
import { StatusMessage } from "@/components/ui/status-message";
import type { FormState } from "@/lib/http/form-state";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

/**
 * Pause or resume a published campaign, and archive it behind a confirmation: archiving
 * cancels every active enrollment, which the dialog says before anything happens.
 */
export function CampaignControls({
  status,
  active,
  pause,
  resume,
  archive,
}: {
  status: string;
  /** active enrollments, named in the archive dialog */
  active: number;
  pause: Action;
  resume: Action;
  archive: Action;
}) {
  const [paused, pauseAction] = useActionState<FormState, FormData>(pause, {});
  const [resumed, resumeAction] = useActionState<FormState, FormData>(resume, {});
  if (status === "archived") return null;
  return (
    <div className="stack">
      <div className="row">
        {status === "active" && (
          <form action={pauseAction}>
            <SubmitButton className="secondary" pendingLabel="Pausing…">
              Pause
            </SubmitButton>
          </form>
        )}
        {status === "paused" && (
          <form action={resumeAction}>
            <SubmitButton pendingLabel="Resuming…">Resume</SubmitButton>
          </form>
        )}
        <ConfirmAction
          action={archive}
          label="Archive"
          title="Archive this campaign?"
          body={`Archiving stops the campaign for good and cancels its ${active} active ${
            active === 1 ? "enrollment" : "enrollments"
          }: no further step runs for them. An archived campaign cannot be published again.`}
          confirmLabel="Archive campaign"
        />
      </div>
      <StatusMessage state={paused} />
      <StatusMessage state={resumed} />
    </div>
  );
}
