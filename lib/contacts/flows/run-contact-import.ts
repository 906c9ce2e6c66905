import { asUser, withService, withServiceStatement, type Claims, type Db } from "@/lib/db/doors";
import { importContactsCsv, type ImportProgress } from "../import-contacts-csv";
import type { ImportReport } from "../import/import-report";
import { slices } from "../import/queue-contact-import";
import { parseImportMapping, type ImportMapping } from "../import/import-mapping";
import { unwrap } from "@/lib/errors/app-error";
import { done, failed, type JobOutcome } from "@/lib/jobs/outcome";
import { log } from "@/lib/observability/log";

/** Skipped rows kept with a finished import (the report of a huge file could hold them all). */
const STORED_ERRORS = 1_000;
/** How often, at most, the worker writes the progress of a running import. */
const PROGRESS_EVERY_MS = 500;

export const UPLOADER_GONE =
  "The member who uploaded this file is no longer in the workspace, so it was not imported.";
export const SECOND_FACTOR_MISSING =
  "This workspace now requires two-factor authentication, which the upload's session had not used, so it was not imported.";

/**
 * The 'contact-import' job (docs/decisions.md, "Large imports as a job"): a stored upload imported by the
 * same domain function as the dashboard's synchronous path, as the member who uploaded it (RLS and authorship
 * as in their request), in ONE transaction: all rows or none. The same transaction marks the import
 * succeeded (or failed, for a file the import refuses) and clears the stored file, so a retry
 * after a crash finds the import either done or untouched, never half-done: nothing is doubled.
 * A transaction-scoped advisory lock keeps two workers off one import.
 *
 * Progress (rows read, then the saving phase) is written in short transactions of its own on
 * another connection while the import's transaction is open, so the page sees it move. On the
 * embedded database (one connection) those writes wait until the import ends and are then
 * ignored: only the start and the end are visible there.
 *
 * A file the import refuses, or an uploader who left, is `failed` (no attempt can change it). A
 * critical error (the database refusing a write) rolls the import back and throws, so the job
 * engine retries (docs/decisions.md, "One job outcome"); the row shows the error and goes back to 'queued', or to 'failed' after the
 * last attempt (the file is then cleared).
 */
export async function runContactImport(
  importId: string,
  options: { lastAttempt?: boolean } = {},
): Promise<JobOutcome<{ status: "succeeded" | "skipped" }>> {
  const [job] = await withServiceStatement(
    (db) => db<
      {
        workspace_id: string;
        created_by: string | null;
        attempts: number;
        member: boolean;
        aal: "aal1" | "aal2";
        second_factor_missing: boolean;
      }[]
    >`
      update public.contact_imports i
      set status = 'running', attempts = i.attempts + 1, started_at = now(), rows_done = 0,
          phase = 'reading', error = null
      where i.id = ${importId} and i.status in ('queued', 'running')
      returning i.workspace_id, i.created_by, i.attempts, i.uploader_aal as aal,
        exists (select 1 from public.workspace_members m
                where m.workspace_id = i.workspace_id and m.user_id = i.created_by) as member,
        i.uploader_aal <> 'aal2' and exists (select 1 from public.workspace_security s
                where s.workspace_id = i.workspace_id and s.require_two_factor) as second_factor_missing`,
  );
  if (!job) return done({ status: "skipped" }); // finished by an earlier attempt, or deleted
  if (!job.member || !job.created_by) {
    await withServiceStatement((db) => finish(db, importId, { error: UPLOADER_GONE }));
    return failed("forbidden", UPLOADER_GONE);
  }
  // the workspace has required two-factor since an upload from a session without it: the database
  // would refuse the uploader's claims (docs/decisions.md, "The second factor holds at the database")
  if (job.second_factor_missing) {
    await withServiceStatement((db) => finish(db, importId, { error: SECOND_FACTOR_MISSING }));
    return failed("forbidden", SECOND_FACTOR_MISSING);
  }
  // the level the uploader's session had, kept with the upload: never more than they had
  const claims: Claims = { sub: job.created_by, role: "authenticated", aal: job.aal };
  const progress = progressWriter(importId, job.attempts);
  try {
    const outcome = await withService(
      async (db): Promise<JobOutcome<{ status: "succeeded" | "skipped" }>> => {
        await db`select pg_advisory_xact_lock(hashtextextended(${`contact_import:${importId}`}, 0))`;
        const [row] = await db`
        select content, mark_subscribed, host(uploader_ip) as ip, mapping from public.contact_imports
        where id = ${importId} and status = 'running' and content is not null`;
        if (!row) return done({ status: "skipped" }); // another worker finished it while this one waited
        const imported = await asUser(db, claims, () =>
          importContactsCsv(db, {
            workspaceId: job.workspace_id,
            file: slices(row.content),
            markSubscribed: row.mark_subscribed,
            uploaderIp: row.ip,
            actorUserId: job.created_by,
            onProgress: progress.update,
            mapping: storedMapping(row.mapping),
          }),
        );
        if ("error" in imported) {
          await finish(db, importId, { error: imported.error.message });
          return failed(imported.error.code, imported.error.message);
        }
        await finish(db, importId, { report: imported.data });
        return done({ status: "succeeded" });
      },
    );
    await progress.settle();
    return outcome;
  } catch (error) {
    await progress.settle();
    const message = error instanceof Error ? error.message : String(error);
    await withServiceStatement((db) =>
      options.lastAttempt
        ? finish(db, importId, {
            error: `The import failed and was rolled back: nothing was changed. (${message})`,
          })
        : db`update public.contact_imports
             set status = 'queued', phase = null, rows_done = 0,
                 error = ${`Attempt ${job.attempts} failed and was rolled back; it will be retried. (${message})`}
             where id = ${importId} and status = 'running'`,
    );
    throw error;
  }
}

/** The mapping stored with the upload (checked when it was sent; a row edited since is refused whole). */
function storedMapping(value: unknown): ImportMapping | null {
  if (value === null || value === undefined) return null;
  return unwrap(parseImportMapping(value));
}

/** Ends an import: the outcome, the time, and the stored file cleared (the row stays as history). */
function finish(db: Db, importId: string, outcome: { report: ImportReport } | { error: string }) {
  const result =
    "report" in outcome ? { ...outcome.report, errors: outcome.report.errors.slice(0, STORED_ERRORS) } : null;
  return db`
    update public.contact_imports
    set status = ${result ? "succeeded" : "failed"}, content = null, finished_at = now(), phase = null,
        rows_done = case when ${result !== null} then rows_total else rows_done end,
        result = ${result ? db.json(result as never) : null},
        error = ${"error" in outcome ? outcome.error : null}
    where id = ${importId}`;
}

/**
 * Writes an import's progress in transactions of its own, at most every PROGRESS_EVERY_MS and
 * one at a time (the latest wins). Only while this attempt still runs it: a write that arrives
 * late (after the end, or after a later attempt started) changes nothing.
 */
function progressWriter(importId: string, attempt: number) {
  let latest: ImportProgress | null = null;
  let writing: Promise<void> = Promise.resolve();
  let busy = false;
  let last = 0;
  const write = async (): Promise<void> => {
    while (latest) {
      const p = latest;
      latest = null;
      last = Date.now();
      await withServiceStatement(
        (db) => db`
          update public.contact_imports
          set rows_done = least(${p.rowsRead}, rows_total), phase = ${p.phase}
          where id = ${importId} and status = 'running' and attempts = ${attempt}`,
      ).catch((error) => log.error({ err: error }, "contact import progress could not be saved"));
    }
    busy = false;
  };
  return {
    update(p: ImportProgress) {
      latest = p;
      if (busy || (p.phase === "reading" && Date.now() - last < PROGRESS_EVERY_MS)) return;
      busy = true;
      writing = write();
    },
    /** Waits for a write in flight (tests and the job's end). */
    settle: () => writing,
  };
}
