"use client";

import { useState } from "react";
import type { ActionResult } from "@/lib/adapters/action-result";

/** "Send a test to me": the broadcast to the member's own address, merge tags filled with their name. */
export function BroadcastTestSend({
  broadcastId,
  action,
}: {
  broadcastId: string;
  action: (broadcastId: string) => Promise<ActionResult<{ to: string }>>;
}) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);
  async function send() {
    setBusy(true);
    try {
      const result = await action(broadcastId);
      setNote(
        result.data
          ? { ok: true, text: `Test sent to ${result.data.to}.` }
          : { ok: false, text: result.message ?? "The test could not be sent." },
      );
    } catch {
      setNote({ ok: false, text: "The connection was lost; try again." });
    } finally {
      setBusy(false);
    }
  }
  return (
    <div className="stack">
      <div>
        <button type="button" className="secondary" disabled={busy} onClick={send}>
          Send a test to me
        </button>
      </div>
      <div role="status" aria-live="polite">
        {note && <div className={`alert ${note.ok ? "success" : "error"}`}>{note.text}</div>}
      </div>
    </div>
  );
}
