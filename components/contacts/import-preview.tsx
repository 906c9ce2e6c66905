import { IMPORT_FIELD_LABELS, type ColumnMapping } from "@/lib/contacts/import/csv-columns";

/** The column mapping the import will use, with the first rows of the file under each column. */
export function ImportPreview({ mapping, sample }: { mapping: ColumnMapping; sample: string[][] }) {
  return (
    <table className="data">
      <caption style={{ textAlign: "left", padding: "0.5rem 0" }}>
        How the columns of your file will be read (first {sample.length} rows)
      </caption>
      <thead>
        <tr>
          <th scope="col">Column in the file</th>
          <th scope="col">Imported as</th>
          <th scope="col">Sample values</th>
        </tr>
      </thead>
      <tbody>
        {mapping.headers.map((header, i) => {
          const field = mapping.fields[i];
          return (
            <tr key={`${i}-${header}`}>
              <th scope="row">{header || <em>(no name)</em>}</th>
              <td>{field ? IMPORT_FIELD_LABELS[field] : <span className="hint">Not imported</span>}</td>
              <td className="hint">
                {sample
                  .map((row) => row[i] ?? "")
                  .filter(Boolean)
                  .slice(0, 3)
                  .join(" · ")}
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
