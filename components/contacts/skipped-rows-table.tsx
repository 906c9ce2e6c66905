import { DataTable } from "@/components/ui/data-table";
import type { ImportRowError } from "@/lib/contacts/import/import-report";

/** The rows an import skips (or will skip), each with its email and the reason, under a shown caption. */
export function SkippedRowsTable({
  errors,
  caption,
}: {
  errors: readonly ImportRowError[];
  caption: React.ReactNode;
}) {
  return (
    <DataTable
      rows={errors}
      columns={["Row", "Email", "Reason"]}
      caption={caption}
      captionShown
      captionStyle={{ textAlign: "left", padding: "0.5rem 0" }}
    >
      {(e) => (
        <tr key={e.row}>
          <td>{e.row}</td>
          <td>{e.email}</td>
          <td>{e.reason}</td>
        </tr>
      )}
    </DataTable>
  );
}
