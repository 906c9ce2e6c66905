import type { Db } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";
import { FILE_ERRORS, ImportFileError, readCsv } from "./read-csv";
import { refused, type Refused, type Result } from "@/lib/errors/app-error";
import type { ImportMapping } from "./import-mapping";

/** Slices of the stored file, as the import reads a stream: progress follows the bytes. */
export async function* slices(content: Uint8Array, size = 256 * 1024): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < content.byteLength; at += size) yield content.subarray(at, at + size);
}

/**
 * The rows an import will read (the header and blank lines excluded), counted as the import
 * counts them (same parser), so that the progress bar ends at its total. A file the parser
 * refuses (binary, not UTF-8, empty, an unclosed quote) answers the import's own message.
 */
export async function countImportRows(content: Uint8Array): Promise<{ rows: number } | Refused> {
  let rows = -1; // the header
  try {
    for await (const batch of readCsv(slices(content)))
      for (const record of batch) if (rows < 0 || record.cells.some((c) => c.trim() !== "")) rows += 1;
  } catch (error) {
    if (error instanceof ImportFileError) return refused("invalid", error.message);
    throw error;
  }
  if (rows < 0) return refused("invalid", FILE_ERRORS.empty);
  if (rows === 0) return refused("invalid", FILE_ERRORS.noRows);
  return { rows };
}

export interface QueueContactImportInput {
  workspaceId: string;
  /** the uploading member: the worker imports as them */
  userId: string;
  /**
   * their session's assurance level: the worker's claims carry it, never more (docs/decisions.md,
   * "The second factor holds at the database")
   */
  aal?: "aal1" | "aal2";
  fileName: string;
  content: Uint8Array;
  markSubscribed: boolean;
  uploaderIp: string | null;
  /** the column mapping chosen at upload (import-mapping.ts), applied by the job */
  mapping?: ImportMapping | null;
}

/**
 * docs/decisions.md, "Large imports as a job": a large dashboard upload is stored with its file and imported
 * by a job ('contact-import'), enqueued in the caller's transaction: the row and its job exist together
 * or not at all. The file is checked as far as reading it goes (the rows are counted for the
 * progress bar); the rows themselves are checked by the import. Runs as the service (the job
 * engine's tables and the writes to contact_imports are closed to members); the caller has
 * checked the member belongs to the workspace.
 */
export async function queueContactImport(
  db: Db,
  input: QueueContactImportInput,
): Promise<Result<{ id: string }>> {
  const counted = await countImportRows(input.content);
  if ("error" in counted) return counted;
  const [row] = await db<{ id: string }[]>`
    insert into public.contact_imports
      (workspace_id, created_by, file_name, file_size, content, mark_subscribed, uploader_ip, rows_total,
       mapping, uploader_aal)
    values (${input.workspaceId}, ${input.userId}, ${input.fileName.slice(0, 255) || "upload.csv"},
            ${input.content.byteLength}, ${Buffer.from(input.content.buffer, input.content.byteOffset, input.content.byteLength)},
            ${input.markSubscribed}, ${input.uploaderIp}::inet, ${counted.rows},
            ${input.mapping ? db.json(input.mapping as never) : null}, ${input.aal ?? "aal1"})
    returning id`;
  await enqueue(db, { queue: "contact-import", data: { workspaceId: input.workspaceId, importId: row.id } });
  return { data: { id: row.id } };
}
