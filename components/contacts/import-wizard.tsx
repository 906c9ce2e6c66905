"use client";

import { useId, useRef, useState } from "react";
import type { ImportMapping, MappableCustomField } from "@/lib/contacts/import/import-mapping";
import type { ImportReport } from "@/lib/contacts/import/import-report";
import type { ImportPreview } from "@/lib/contacts/import/preview-import";
import { ImportJobProgress, type ImportStatusReader } from "./import-job-progress";
import { ImportMappingStep, mappingOfPreview } from "./import-preview";
import { ImportResult } from "./import-result";

type Progress = { phase: string; bytesRead: number; rowsRead: number; totalBytes: number };
type Step =
  | { kind: "choose"; error?: string }
  | { kind: "checking"; file: File }
  | { kind: "map"; file: File; preview: ImportPreview; busy: boolean; error?: string }
  | { kind: "running"; file: File; progress: Progress | null }
  | { kind: "done"; report: ImportReport }
  | { kind: "queued"; file: File; importId: string }
  | { kind: "failed"; error: string };

const PHASES: Record<string, string> = {
  contacts: "Saving contacts…",
  tags: "Saving tags…",
  notes: "Saving notes…",
};

/** A large file's mapping is checked on its first megabyte (cut at a line end), not uploaded whole each time. */
const PREVIEW_BYTES = 1024 * 1024;

async function previewPart(file: File, jobThreshold: number | undefined): Promise<Blob> {
  if (file.size <= Math.max(jobThreshold ?? 0, PREVIEW_BYTES)) return file;
  const head = new Uint8Array(await file.slice(0, PREVIEW_BYTES).arrayBuffer());
  const end = head.lastIndexOf(10);
  return new Blob([head.subarray(0, end > 0 ? end + 1 : head.length)]);
}

/**
 * Spec 4.15 CSV import: choose a file, map its columns (with the first rows as they will be stored
 * and the rows that will be skipped), import with progress, read the report.
 */
export function ImportWizard({
  maxBytes,
  jobThreshold,
  readStatus,
  customFields = [],
}: {
  /** the workspace's custom fields, offered as targets */
  customFields?: MappableCustomField[];
  maxBytes: number;
  jobThreshold?: number;
  readStatus: ImportStatusReader;
}) {
  const id = useId();
  const [step, setStep] = useState<Step>({ kind: "choose" });
  const [subscribed, setSubscribed] = useState(false);
  const checks = useRef(0);

  /** Asks the server how the file reads with `mapping` (null: the saved mapping, else by name). */
  async function check(file: File, mapping: ImportMapping | null, current?: ImportPreview) {
    const turn = ++checks.current;
    setStep(current ? { kind: "map", file, preview: current, busy: true } : { kind: "checking", file });
    const query = new URLSearchParams({
      filename: file.name,
      ...(mapping ? { mapping: JSON.stringify(mapping) } : {}),
    });
    let outcome: { preview: ImportPreview } | { error: string };
    try {
      const response = await fetch(`/api/contacts/import/preview?${query}`, {
        method: "POST",
        body: await previewPart(file, jobThreshold),
        headers: { "content-type": "text/csv" },
      });
      const body = await response.json().catch(() => ({}));
      outcome = response.ok ? { preview: body } : { error: body.error ?? "The file could not be read." };
    } catch {
      outcome = { error: "The connection was lost; try again." };
    }
    if (turn !== checks.current) return; // a later choice is on its way
    if ("preview" in outcome) setStep({ kind: "map", file, preview: outcome.preview, busy: false });
    else if (current) setStep({ kind: "map", file, preview: current, busy: false, error: outcome.error });
    else setStep({ kind: "choose", error: outcome.error });
  }

  async function choose(file: File | undefined) {
    if (!file) return setStep({ kind: "choose" });
    if (!/\.(csv|txt)$/i.test(file.name)) return setStep({ kind: "choose", error: "Choose a .csv file." });
    if (file.size === 0) return setStep({ kind: "choose", error: "The file is empty." });
    if (file.size > maxBytes)
      return setStep({
        kind: "choose",
        error: `The file is larger than ${maxBytes / 1024 / 1024} MB. Import it from the command line (npm run import).`,
      });
    await check(file, null);
  }

  async function run(file: File, mapping: ImportMapping) {
    setStep({ kind: "running", file, progress: null });
    const query = new URLSearchParams({
      filename: file.name,
      mapping: JSON.stringify(mapping),
      ...(subscribed ? { subscribed: "1" } : {}),
    });
    try {
      const response = await fetch(`/api/contacts/import?${query}`, {
        method: "POST",
        body: file,
        headers: { "content-type": "text/csv" },
      });
      if (!response.ok || !response.body) {
        const body = await response.json().catch(() => ({}));
        return setStep({ kind: "failed", error: body.error ?? "The import could not start." });
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffered = "";
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buffered += value;
        const lines = buffered.split("\n");
        buffered = lines.pop() ?? "";
        for (const line of lines.filter(Boolean)) {
          const event = JSON.parse(line);
          if (event.type === "progress") setStep({ kind: "running", file, progress: event });
          else if (event.type === "done") return setStep({ kind: "done", report: event.report });
          else if (event.type === "queued")
            return setStep({ kind: "queued", file, importId: event.importId });
          else if (event.type === "error") return setStep({ kind: "failed", error: event.error });
        }
      }
      setStep({
        kind: "failed",
        error: "The connection closed before the import finished; nothing was changed.",
      });
    } catch {
      setStep({
        kind: "failed",
        error: "The connection was lost; the import was rolled back and nothing was changed.",
      });
    }
  }

  return (
    <div className="stack">
      <div className="card stack">
        <div className="field">
          <label htmlFor={id}>CSV file</label>
          <input
            id={id}
            type="file"
            accept=".csv,text/csv"
            disabled={step.kind === "running"}
            aria-describedby={`${id}-hint`}
            onChange={(e) => choose(e.target.files?.[0])}
          />
          <span id={`${id}-hint`} className="hint">
            One contact per row, with a column of email addresses; you choose what each column becomes next.
            Up to {maxBytes / 1024 / 1024} MB; larger files go through the command line.
            {jobThreshold !== undefined &&
              ` Files over ${formatSize(jobThreshold)} are imported in the background, with their progress below.`}
          </span>
        </div>
        <label className="check">
          <input
            type="checkbox"
            checked={subscribed}
            disabled={step.kind === "running"}
            onChange={(e) => setSubscribed(e.target.checked)}
          />
          <span>
            Mark as Subscribed: every person in this file agreed to receive marketing email. Consent is
            recorded as &lsquo;CSV Import&rsquo; with your IP address and the time; contacts already
            subscribed keep their consent.
          </span>
        </label>
      </div>
      <div role="status" aria-live="polite">
        {step.kind === "choose" && step.error && <div className="alert error">{step.error}</div>}
        {step.kind === "checking" && <p>Reading {step.file.name}…</p>}
        {step.kind === "map" && step.error && <div className="alert error">{step.error}</div>}
        {step.kind === "failed" && <div className="alert error">{step.error}</div>}
        {step.kind === "done" && (
          <div className="alert success">
            Import finished: {step.report.created} created, {step.report.updated} updated,{" "}
            {step.report.skipped} skipped.
          </div>
        )}
      </div>
      {step.kind === "map" && (
        <>
          <ImportMappingStep
            preview={step.preview}
            busy={step.busy}
            partial={step.file.size > Math.max(jobThreshold ?? 0, PREVIEW_BYTES)}
            customFields={customFields}
            onChange={(mapping) => check(step.file, mapping, step.preview)}
          />
          <div>
            <button
              type="button"
              disabled={step.busy || step.preview.problem !== null}
              onClick={() => run(step.file, mappingOfPreview(step.preview))}
            >
              Import {step.file.name}
            </button>
          </div>
        </>
      )}
      {step.kind === "running" && <ImportProgressBar file={step.file} progress={step.progress} />}
      {step.kind === "done" && <ImportResult report={step.report} />}
      {step.kind === "queued" && (
        <ImportJobProgress importId={step.importId} fileName={step.file.name} readStatus={readStatus} />
      )}
    </div>
  );
}

function ImportProgressBar({ file, progress }: { file: File; progress: Progress | null }) {
  const share = progress ? Math.min(progress.bytesRead / (progress.totalBytes || file.size), 1) : 0;
  const label =
    !progress || progress.phase === "reading"
      ? `Reading ${file.name}: ${Math.round(share * 100)}%${progress ? `, ${progress.rowsRead.toLocaleString("en-US")} rows` : ""}`
      : (PHASES[progress.phase] ?? "Saving…");
  return (
    <div className="card stack">
      <progress
        max={1}
        value={progress?.phase === "reading" || !progress ? share : undefined}
        aria-label="Import progress"
      />
      <span>{label}</span>
    </div>
  );
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${+(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}
