/**
 * The one list table: an empty state when there are no rows, else a `table.data` with an
 * optional (screen-reader) caption, one column header per name and a row per item.
 */
export function DataTable<T>({
  rows,
  columns,
  caption,
  empty,
  style,
  children,
}: {
  rows: readonly T[];
  columns: readonly React.ReactNode[];
  caption?: React.ReactNode;
  /** shown instead of the table when there are no rows (omit to show the empty table) */
  empty?: React.ReactNode;
  style?: React.CSSProperties;
  children: (row: T, index: number) => React.ReactNode;
}) {
  if (rows.length === 0 && empty !== undefined) return <div className="card empty">{empty}</div>;
  return (
    <table className="data" style={style}>
      {caption !== undefined && <caption className="sr-only">{caption}</caption>}
      <thead>
        <tr>
          {columns.map((column, i) => (
            <th key={i} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{rows.map(children)}</tbody>
    </table>
  );
}
