"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { Dialog } from "@/components/ui/dialog";
import type { ActionResult } from "@/lib/adapters/action-result";
import type { BroadcastControl } from "@/lib/email/control-broadcast";
import type { BroadcastProgress } from "@/lib/email/send-broadcast";

const POLL_MS = 1500;

/**
 * Starts the broadcast as a background job and shows its progress as the database has it.
 * Closing the page does not stop it; pause, resume and cancel act on the job, and nobody gets
 * the email twice whatever happens.
 */
type Progress = ActionResult<BroadcastProgress>;

export function BroadcastSender({
  broadcastId,
  eligible,
  initial,
  progressAction,
  controlAction,
}: {
  broadcastId: string;
  eligible: number;
  initial: BroadcastProgress;
  progressAction: (broadcastId: string) => Promise<Progress>;
  controlAction: (broadcastId: string, control: BroadcastControl) => Promise<Progress>;
}) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const sending = progress.status === "sending";

  useEffect(() => {
    if (!sending) return;
    const timer = setInterval(async () => {
      const result = await progressAction(broadcastId).catch(() => null);
      if (!result?.data) return;
      setProgress(result.data);
      if (result.data.done) router.refresh();
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [sending, broadcastId, router, progressAction]);

  async function control(action: BroadcastControl) {
    setBusy(true);
    setError(null);
    try {
      const result = await controlAction(broadcastId, action);
      if (result.data) setProgress(result.data);
      else setError(result.message ?? "That did not work. Reload the page to see where the broadcast is.");
    } catch {
      setError("The connection was lost. Reload the page to see where the broadcast is.");
    } finally {
      setBusy(false);
    }
  }

  const total = progress.processed + progress.remaining;
  const started = progress.status !== "draft" || progress.processed > 0;
  const label =
    progress.status === "sent"
      ? "Finished: "
      : progress.status === "cancelled"
        ? "Cancelled: "
        : progress.status === "paused"
          ? `Paused at ${progress.processed} of ${total}: `
          : `${progress.processed} of ${total} processed: `;
  return (
    <div className="stack">
      <div role="status" aria-live="polite" className="stack">
        {started && (
          <>
            <progress max={Math.max(total, 1)} value={progress.processed} aria-label="Broadcast progress" />
            <span>
              {label}
              {progress.sent} sent, {progress.skipped} skipped, {progress.failed} failed
            </span>
          </>
        )}
        {error && <div className="alert error">{error}</div>}
      </div>
      {!progress.done && (
        <div className="row">
          {progress.status === "draft" && (
            <Dialog label="Send broadcast…" title="Send this broadcast?">
              {(close) => (
                <>
                  <p>
                    It goes to {eligible} eligible contact{eligible === 1 ? "" : "s"}, in the background: you
                    can close this page.
                  </p>
                  <div className="row">
                    <button
                      type="button"
                      onClick={() => {
                        close();
                        void control("start");
                      }}
                    >
                      Send now
                    </button>
                    <button type="button" className="secondary" onClick={close}>
                      Cancel
                    </button>
                  </div>
                </>
              )}
            </Dialog>
          )}
          {progress.status === "sending" && (
            <button type="button" className="secondary" disabled={busy} onClick={() => control("pause")}>
              Pause
            </button>
          )}
          {progress.status === "paused" && (
            <button type="button" disabled={busy} onClick={() => control("resume")}>
              Resume sending
            </button>
          )}
          {(progress.status === "sending" || progress.status === "paused") && (
            <button type="button" className="secondary" disabled={busy} onClick={() => control("cancel")}>
              Cancel broadcast
            </button>
          )}
        </div>
      )}
    </div>
  );
}
