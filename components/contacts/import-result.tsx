"use client";

import { reportSummary, reportToCsv, type ImportReport } from "@/lib/contacts/import/import-report";
import { SkippedRowsTable } from "./skipped-rows-table";

const SHOWN_ERRORS = 100;

/** The import's report: the counts, the skipped rows with their reasons, a CSV download. */
export function ImportResult({ report }: { report: ImportReport }) {
  const download = () => {
    const url = URL.createObjectURL(new Blob([reportToCsv(report)], { type: "text/csv;charset=utf-8" }));
    const link = Object.assign(document.createElement("a"), { href: url, download: "import-report.csv" });
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <section className="stack" aria-labelledby="report-heading">
      <h2 id="report-heading">Import report</h2>
      <table className="data">
        <tbody>
          {reportSummary(report).map(([label, count]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{count.toLocaleString("en-US")}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>
        <button type="button" className="secondary" onClick={download}>
          Download the report (CSV)
        </button>
      </p>
      {report.errors.length > 0 && (
        <SkippedRowsTable
          errors={report.errors.slice(0, SHOWN_ERRORS)}
          caption={
            <>
              Skipped rows
              {report.errors.length > SHOWN_ERRORS &&
                ` (first ${SHOWN_ERRORS}; all are in the downloaded report)`}
            </>
          }
        />
      )}
    </section>
  );
}
