import type { ContactImport } from "./list-contact-imports";

const PHASES: Record<string, string> = {
  reading: "Reading rows",
  contacts: "Saving contacts…",
  tags: "Saving tags…",
  notes: "Saving notes…",
};

/** What a background import's progress says, for the bar's label and the history table. */
export function importProgressLabel(
  i: Pick<ContactImport, "status" | "phase" | "rowsDone" | "rowsTotal">,
): string {
  const rows = `${i.rowsDone.toLocaleString("en-US")} of ${i.rowsTotal.toLocaleString("en-US")} rows`;
  if (i.status === "queued") return "Waiting for a worker…";
  // the saving statements are set-based: no count while they run, so the bar is indeterminate then
  if (i.status === "running")
    return i.phase && i.phase !== "reading" ? `${PHASES[i.phase]} (${rows} read)` : `Reading: ${rows}`;
  return i.status === "succeeded" ? `Imported: ${rows}` : "Failed: nothing was imported";
}
