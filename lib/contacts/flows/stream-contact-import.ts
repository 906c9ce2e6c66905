import "server-only";
import type { ActionContext } from "@/lib/adapters/member-action";
import { writeAudit } from "@/lib/adapters/audit-note";
import { logUnexpected } from "@/lib/adapters/log-unexpected";
import {
  BROWSER_IMPORT_MAX_BYTES,
  importContactsCsv,
  importJobThresholdBytes,
  type ImportProgress,
} from "@/lib/contacts/import-contacts-csv";
import { queueContactImport } from "@/lib/contacts/import/queue-contact-import";
import { FILE_ERRORS } from "@/lib/contacts/import/read-csv";
import type { ImportMapping } from "@/lib/contacts/import/import-mapping";
import { withService, withUser } from "@/lib/db/doors";
import { refused, type Refused } from "@/lib/errors/app-error";

export interface StreamImportInput {
  body: ReadableStream<Uint8Array>;
  /** the upload's Content-Length */
  length: number;
  fileName: string;
  markSubscribed: boolean;
  ip: string | null;
  /** the column mapping chosen in the mapping step (import-mapping.ts); null: by name */
  mapping: ImportMapping | null;
}

/**
 * The dashboard's CSV import (spec 4.15) as a stream of NDJSON lines, progress then the outcome.
 * A file above IMPORT_JOB_THRESHOLD_BYTES is imported by a job (docs/decisions.md, "Large imports as a job"):
 * the stream then ends with `{ type: "queued", importId }` and the page follows the import. The import,
 * or the queueing, writes its audit row (contacts.imported) in its own transaction.
 */
export function streamContactImport(
  ctx: ActionContext,
  input: StreamImportInput,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    async start(controller) {
      const send = (line: object) => controller.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
      let last = 0;
      const onProgress = (p: ImportProgress) => {
        if (p.phase !== "reading" || Date.now() - last > 200) {
          last = Date.now();
          send({ type: "progress", ...p, totalBytes: input.length });
        }
      };
      const audit = {
        input: { fileName: input.fileName, markSubscribed: input.markSubscribed },
        ip: input.ip,
      };
      try {
        if (input.length > importJobThresholdBytes()) {
          const content = await receive(input.body, (bytesRead) =>
            onProgress({ phase: "reading", bytesRead, rowsRead: 0 }),
          );
          const queued =
            "error" in content
              ? content
              : await withService(async (db) => {
                  const result = await queueContactImport(db, {
                    workspaceId: ctx.workspaceId,
                    userId: ctx.userId,
                    aal: ctx.claims.aal,
                    fileName: input.fileName,
                    content: content.bytes,
                    markSubscribed: input.markSubscribed,
                    uploaderIp: input.ip,
                    mapping: input.mapping,
                  });
                  if ("data" in result) {
                    ctx.audit.target("contact_import", result.data.id);
                    await writeAudit(db, ctx, "contacts.imported", audit);
                  }
                  return result;
                });
          send(
            "error" in queued
              ? { type: "error", error: queued.error.message }
              : { type: "queued", importId: queued.data.id },
          );
          return;
        }
        const result = await withUser(ctx.claims, async (db) => {
          const imported = await importContactsCsv(db, {
            workspaceId: ctx.workspaceId,
            file: chunks(input.body),
            markSubscribed: input.markSubscribed,
            uploaderIp: input.ip,
            actorUserId: ctx.userId,
            maxBytes: BROWSER_IMPORT_MAX_BYTES,
            onProgress,
            mapping: input.mapping,
          });
          if ("data" in imported) {
            ctx.audit.change(null, { ...audit.input, ...summary(imported.data) });
            await writeAudit(db, ctx, "contacts.imported", audit);
          }
          return imported;
        });
        send(
          "error" in result
            ? { type: "error", error: result.error.message }
            : { type: "done", report: result.data },
        );
      } catch (error) {
        const ref = logUnexpected("contacts import", error);
        send({
          type: "error",
          error: `The import failed and was rolled back: nothing was changed. (ref ${ref})`,
        });
      } finally {
        controller.close();
      }
    },
  });
}

/** The report's counts (never its rows: they hold contacts' addresses). */
function summary(report: object): Record<string, number> {
  return Object.fromEntries(Object.entries(report).filter(([, v]) => typeof v === "number"));
}

/** The whole body (a large upload is stored before its job imports it), within the upload limit. */
async function receive(
  body: ReadableStream<Uint8Array>,
  onBytes: (bytesRead: number) => void,
): Promise<{ bytes: Uint8Array } | Refused> {
  const parts: Uint8Array[] = [];
  let total = 0;
  for await (const chunk of chunks(body)) {
    total += chunk.byteLength;
    if (total > BROWSER_IMPORT_MAX_BYTES)
      return refused("too_large", FILE_ERRORS.tooLarge(BROWSER_IMPORT_MAX_BYTES));
    parts.push(chunk);
    onBytes(total);
  }
  return { bytes: Buffer.concat(parts) };
}

/** A request body as the import reads files: its chunks, as they arrive. */
export async function* chunks(body: ReadableStream<Uint8Array>): AsyncGenerator<Uint8Array> {
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
