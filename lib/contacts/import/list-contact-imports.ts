import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import type { ImportReport } from "./import-report";

export type ContactImportStatus = "queued" | "running" | "succeeded" | "failed";

/** A background import as its members see it (never the file, never the uploader's IP). */
export interface ContactImport {
  id: string;
  fileName: string;
  fileSize: number;
  markSubscribed: boolean;
  status: ContactImportStatus;
  rowsTotal: number;
  rowsDone: number;
  phase: "reading" | "contacts" | "tags" | "notes" | null;
  attempts: number;
  result: ImportReport | null;
  error: string | null;
  createdBy: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const columns = (db: Db) => db`
  id, file_name as "fileName", file_size::float8 as "fileSize", mark_subscribed as "markSubscribed", status,
  rows_total as "rowsTotal", rows_done as "rowsDone", phase, attempts, result, error, created_by as "createdBy",
  created_at as "createdAt", started_at as "startedAt", finished_at as "finishedAt"`;

/**
 * The workspace's background CSV imports, newest first (docs/decisions.md, "Large imports as a job"). Run as
 * the member: RLS shows the imports of their own workspaces only; the workspace is the member's current one.
 */
export async function listContactImports(db: Db, workspaceId: string, limit = 10): Promise<ContactImport[]> {
  return db<ContactImport[]>`
    select ${columns(db)} from public.contact_imports
    where workspace_id = ${workspaceId}
    order by created_at desc, id
    limit ${limit}`;
}

/** One import of the workspace, or null (not found, or not the member's to see). */
export async function getContactImport(
  db: Db,
  input: { workspaceId: string; importId: string },
): Promise<ContactImport | null> {
  if (!isUuid(input.importId)) return null;
  const [row] = await db<ContactImport[]>`
    select ${columns(db)} from public.contact_imports
    where id = ${input.importId} and workspace_id = ${input.workspaceId}`;
  return row ?? null;
}
