"use client";

import { useRouter } from "next/navigation";
import { useEffect, useId, useState } from "react";
import { ConfirmAction } from "@/components/confirm-action";
import type { FormState } from "@/lib/http/form-state";

type Action = (prev: FormState, form: FormData) => Promise<FormState>;

export interface BulkProgress {
  total: number;
  done: number;
  enrolled: number;
  finished_at: string | null;
}

/**
 * "Enroll everyone in a segment now" (docs/decisions.md, "Campaign enrollment from a segment"):
 * the segment chosen, a confirmation naming what happens, then the progress of the one-off, read
 * again every few seconds while it runs (a large segment is enrolled chunk by chunk).
 */
export function BulkEnroll({
  action,
  segments,
  progress,
  segmentName,
}: {
  action: Action;
  segments: { id: string; name: string }[];
  progress: BulkProgress | null;
  segmentName: string | null;
}) {
  const uid = useId();
  const router = useRouter();
  const [segmentId, setSegmentId] = useState("");
  const running = progress !== null && progress.finished_at === null;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => router.refresh(), 3000);
    return () => clearInterval(timer);
  }, [running, router]);
  const chosen = segments.find((s) => s.id === segmentId);
  return (
    <div className="stack">
      {progress && (
        <p data-testid="bulk-enroll-progress" role="status">
          {running ? "Enrolling" : "Enrolled"} {segmentName ? `“${segmentName}”` : "the segment"}:{" "}
          {progress.done} of {progress.total} contacts looked at, {progress.enrolled} enrolled
          {running ? "…" : " (the others were enrolled already, or may not be enrolled again)."}
        </p>
      )}
      {progress && progress.total > 0 && (
        <progress max={progress.total} value={progress.done} aria-label="Enrollment of the segment" />
      )}
      <div className="row" style={{ alignItems: "flex-end" }}>
        <div className="field">
          <label htmlFor={`${uid}-segment`}>Enroll everyone in a segment now</label>
          <select id={`${uid}-segment`} value={segmentId} onChange={(e) => setSegmentId(e.target.value)}>
            <option value="">Choose a segment</option>
            {segments.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        {chosen && !running && (
          <ConfirmAction
            action={action}
            fields={{ segmentId: chosen.id }}
            className="secondary"
            label="Enroll everyone…"
            title={`Enroll everyone in “${chosen.name}”?`}
            body={
              "Every contact in the segment now is enrolled, except those enrolled already (and, when the " +
              "campaign does not allow re-enrollment, those ever enrolled). They start at once."
            }
            confirmLabel="Enroll them"
          />
        )}
      </div>
    </div>
  );
}
