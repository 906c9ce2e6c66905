"use client";

import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { importProgressLabel } from "@/lib/contacts/import/import-progress-label";
import type { ContactImport } from "@/lib/contacts/import/list-contact-imports";
import { ImportResult } from "./import-result";

const POLL_MS = 2000;

/**
 * A large upload imported by a job (docs/decisions.md, "Large imports as a job"). Polls its state every 2 s
 * until it ends, then shows the report or the error, and refreshes the page (its list of recent imports).
 */
/** Reads where an import is (the page passes its server action). */
export type ImportStatusReader = (importId: string) => Promise<ContactImport | null>;

export function ImportJobProgress({
  importId,
  fileName,
  readStatus,
}: {
  importId: string;
  fileName: string;
  readStatus: ImportStatusReader;
}) {
  const router = useRouter();
  const [state, setState] = useState<ContactImport | null>(null);
  const [lost, setLost] = useState(false);
  const done = state?.status === "succeeded" || state?.status === "failed";

  useEffect(() => {
    if (done) return;
    let stopped = false;
    const poll = async () => {
      const next = await readStatus(importId).catch(() => undefined);
      if (stopped) return;
      setLost(next === undefined);
      if (next) setState(next);
      if (next && (next.status === "succeeded" || next.status === "failed")) router.refresh();
    };
    poll();
    const timer = setInterval(poll, POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [done, importId, router, readStatus]);

  return (
    <div className="stack">
      <div className="card stack">
        <p>
          {fileName} is large, so it is imported in the background: you can leave this page and follow it
          under Recent imports. Nothing is saved unless the whole file goes in.
        </p>
        {!done && (
          <progress
            max={Math.max(state?.rowsTotal ?? 1, 1)}
            value={state?.status === "running" && state.phase === "reading" ? state.rowsDone : undefined}
            aria-label="Import progress"
          />
        )}
        <span role="status" aria-live="polite">
          {state ? importProgressLabel(state) : "Queued…"}
          {lost && " (connection lost, retrying)"}
        </span>
      </div>
      {state?.status === "queued" && state.error && <p className="hint">{state.error}</p>}
      {state?.status === "failed" && <div className="alert error">{state.error}</div>}
      {state?.status === "succeeded" && state.result && (
        <>
          <div className="alert success">
            Import finished: {state.result.created} created, {state.result.updated} updated,{" "}
            {state.result.skipped} skipped.
          </div>
          <ImportResult report={state.result} />
        </>
      )}
    </div>
  );
}
