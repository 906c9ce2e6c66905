"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { sendBroadcastBatchAction } from "@/app/(dashboard)/broadcasts/actions";
import { Dialog } from "@/components/ui/dialog";
import type { BroadcastProgress } from "@/lib/email/send-broadcast";

/**
 * Sends the broadcast batch by batch, showing progress. Closing the page stops between batches;
 * "Resume" carries on where it stopped, and nobody gets the email twice.
 */
export function BroadcastSender({
  broadcastId,
  eligible,
  initial,
}: {
  broadcastId: string;
  eligible: number;
  initial: BroadcastProgress;
}) {
  const router = useRouter();
  const [progress, setProgress] = useState(initial);
  const [running, setRunning] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function run() {
    setRunning(true);
    setError(null);
    try {
      for (;;) {
        const result = await sendBroadcastBatchAction(broadcastId);
        if ("error" in result) return setError(result.error);
        setProgress(result.data);
        if (result.data.done) break;
      }
      router.refresh();
    } catch {
      setError("Sending stopped (connection lost?). Press Resume to carry on; no one gets the email twice.");
    } finally {
      setRunning(false);
    }
  }

  const total = progress.processed + progress.remaining;
  const started = progress.status !== "draft" || progress.processed > 0;
  return (
    <div className="stack">
      <div role="status" aria-live="polite" className="stack">
        {started && (
          <>
            <progress max={Math.max(total, 1)} value={progress.processed} aria-label="Broadcast progress" />
            <span>
              {progress.done ? "Finished: " : `${progress.processed} of ${total} processed: `}
              {progress.sent} sent, {progress.skipped} skipped, {progress.failed} failed
            </span>
          </>
        )}
        {error && <div className="alert error">{error}</div>}
      </div>
      {!progress.done &&
        (started ? (
          <button type="button" onClick={run} disabled={running}>
            {running ? "Sending…" : "Resume sending"}
          </button>
        ) : (
          <Dialog label="Send broadcast…" title="Send this broadcast?">
            {(close) => (
              <>
                <p>
                  It goes to {eligible} eligible contact{eligible === 1 ? "" : "s"} now. This cannot be
                  undone.
                </p>
                <div className="row">
                  <button
                    type="button"
                    onClick={() => {
                      close();
                      void run();
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
        ))}
    </div>
  );
}
