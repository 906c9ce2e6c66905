import type { Metadata } from "next";
import Link from "next/link";
import { ImportWizard } from "@/components/contacts/import-wizard";
import { contactImportStatusAction } from "./actions";
import { RefreshWhile } from "@/components/contacts/refresh-while";
import { requireMember } from "@/lib/auth/context";
import { BROWSER_IMPORT_MAX_BYTES, importJobThresholdBytes } from "@/lib/contacts/import-contacts-csv";
import { importProgressLabel } from "@/lib/contacts/import/import-progress-label";
import { listContactImports } from "@/lib/contacts/import/list-contact-imports";
import { listCustomFields } from "@/lib/contacts/custom-fields";
import { withUser } from "@/lib/db/doors";
import { formatDateTime } from "@/lib/time/format";

export const metadata: Metadata = { title: "Import contacts" };

const STATUS_LABELS = { queued: "Queued", running: "Running", succeeded: "Done", failed: "Failed" };

export default async function ImportPage() {
  const ctx = await requireMember();
  const [imports, customFields] = await withUser(ctx.claims, (db) =>
    Promise.all([
      listContactImports(db, ctx.workspace.workspaceId),
      listCustomFields(db, ctx.workspace.workspaceId),
    ]),
  );
  const active = imports.some((i) => i.status === "queued" || i.status === "running");
  return (
    <>
      <p>
        <Link href="/contacts">← All contacts</Link>
      </p>
      <h1>Import contacts from CSV</h1>
      <p className="hint">
        After you choose a file, you decide what each of its columns becomes: a contact field, a custom field,
        tags (separated by ; or ,), a note on the contact, or nothing. The first rows are shown as they will
        be stored, with the rows that will be skipped and why; your choices are remembered for the next file
        with the same columns. A row whose email is already in the workspace updates that contact, but only
        with the columns that are filled in. New emails become new contacts (source &lsquo;import&rsquo;).
        Missing tags are created. Nothing is saved unless the whole file goes in.
      </p>
      <p>
        <a href="/api/contacts/import/sample" download>
          Download a sample CSV
        </a>
      </p>
      <ImportWizard
        maxBytes={BROWSER_IMPORT_MAX_BYTES}
        jobThreshold={importJobThresholdBytes()}
        readStatus={contactImportStatusAction}
        customFields={customFields.map((f) => ({ key: f.key, label: f.label }))}
      />
      {imports.length > 0 && (
        <section className="stack" aria-labelledby="recent-imports">
          <h2 id="recent-imports">Recent imports</h2>
          <RefreshWhile active={active} />
          <table className="data">
            <thead>
              <tr>
                <th scope="col">File</th>
                <th scope="col">Status</th>
                <th scope="col">Progress</th>
                <th scope="col">Result</th>
                <th scope="col">Uploaded</th>
                <th scope="col">Finished</th>
              </tr>
            </thead>
            <tbody>
              {imports.map((i) => (
                <tr key={i.id} data-testid="import-row" data-status={i.status}>
                  <td>{i.fileName}</td>
                  <td>{STATUS_LABELS[i.status]}</td>
                  <td>
                    {(i.status === "queued" || i.status === "running") && (
                      <progress
                        max={Math.max(i.rowsTotal, 1)}
                        value={i.status === "running" && i.phase === "reading" ? i.rowsDone : undefined}
                        aria-label={`Progress of ${i.fileName}`}
                      />
                    )}{" "}
                    {importProgressLabel(i)}
                  </td>
                  <td style={{ whiteSpace: "pre-wrap" }}>
                    {i.result
                      ? `${i.result.created} created, ${i.result.updated} updated, ${i.result.skipped} skipped`
                      : (i.error ?? "")}
                  </td>
                  <td>{formatDateTime(i.createdAt, ctx.timeZone)}</td>
                  <td>{i.finishedAt ? formatDateTime(i.finishedAt, ctx.timeZone) : ""}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
