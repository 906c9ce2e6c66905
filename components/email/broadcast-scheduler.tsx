"use client";

import { useRouter } from "next/navigation";
import { useId, useState } from "react";
import { DateTime } from "@/components/ui/date-time";
import type { ActionResult } from "@/lib/adapters/action-result";
import { utcToZonedInput, zonedInputToUtc } from "@/lib/time/format";

type Answer = ActionResult<unknown>;

/**
 * Send later: a time in the viewer's time zone, the delayed job behind it, and reschedule or
 * unschedule while it waits. The counts are the page's skip preview (spec 8.3); eligibility is
 * checked again when it sends.
 */
export function BroadcastScheduler({
  broadcastId,
  status,
  scheduledAt,
  timeZone,
  eligible,
  skipped,
  scheduleAction,
  unscheduleAction,
}: {
  broadcastId: string;
  status: string;
  scheduledAt: Date | null;
  timeZone: string;
  eligible: number;
  skipped: number;
  scheduleAction: (broadcastId: string, at: string) => Promise<Answer>;
  unscheduleAction: (broadcastId: string) => Promise<Answer>;
}) {
  const router = useRouter();
  const id = useId();
  const [when, setWhen] = useState(scheduledAt ? utcToZonedInput(scheduledAt, timeZone) : "");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (status !== "draft" && status !== "scheduled") return null;

  async function run(call: () => Promise<Answer>) {
    setBusy(true);
    setError(null);
    try {
      const result = await call();
      if (result.message && !result.data) setError(result.message);
      else router.refresh();
    } catch {
      setError("The connection was lost. Reload the page to see where the broadcast is.");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form
      className="stack"
      aria-labelledby={`${id}-heading`}
      onSubmit={(e) => {
        e.preventDefault();
        if (!when) return setError("Choose a date and time.");
        void run(() => scheduleAction(broadcastId, zonedInputToUtc(when, timeZone).toISOString()));
      }}
    >
      <h3 id={`${id}-heading`}>Send later</h3>
      {status === "scheduled" && scheduledAt && (
        <p data-testid="broadcast-scheduled">
          Scheduled for <DateTime value={scheduledAt} timeZone={timeZone} /> ({timeZone}).
        </p>
      )}
      <div className="field">
        <label htmlFor={`${id}-at`}>Send at ({timeZone})</label>
        <input
          id={`${id}-at`}
          type="datetime-local"
          step={1}
          value={when}
          onChange={(e) => setWhen(e.target.value)}
          aria-describedby={`${id}-hint`}
        />
        <span id={`${id}-hint`} className="hint">
          {eligible} contact{eligible === 1 ? "" : "s"} would receive it now; {skipped} would be skipped (the
          reasons are above). Who may receive it is checked again when it sends.
        </span>
      </div>
      {error && (
        <div className="alert error" role="alert">
          {error}
        </div>
      )}
      <div className="row">
        <button type="submit" disabled={busy}>
          {status === "scheduled" ? "Reschedule" : "Schedule"}
        </button>
        {status === "scheduled" && (
          <button
            type="button"
            className="secondary"
            disabled={busy}
            onClick={() => void run(() => unscheduleAction(broadcastId))}
          >
            Unschedule
          </button>
        )}
      </div>
    </form>
  );
}
