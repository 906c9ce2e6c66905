/**
 * The one list table: an empty state when there are no rows, else a `table.data` with an
 * optional caption (for screen readers only unless `captionShown`), one column header per name
 * and a row per item.
 */
export function DataTable<T>({
  rows,
  columns,
  caption,
  captionShown,
  captionStyle,
  empty,
  style,
  testId,
  children,
}: {
  rows: readonly T[];
  columns: readonly React.ReactNode[];
  caption?: React.ReactNode;
  /** show the caption on screen too, not only to screen readers */
  captionShown?: boolean;
  captionStyle?: React.CSSProperties;
  /** shown instead of the table when there are no rows (omit to show the empty table) */
  empty?: React.ReactNode;
  style?: React.CSSProperties;
  /** the table's `data-testid` */
  testId?: string;
  children: (row: T, index: number) => React.ReactNode;
}) {
  if (rows.length === 0 && empty !== undefined) return <div className="card empty">{empty}</div>;
  return (
    <table className="data" style={style} data-testid={testId}>
      {caption !== undefined && (
        <caption className={captionShown ? undefined : "sr-only"} style={captionStyle}>
          {caption}
        </caption>
      )}
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

/** The header of a column of row actions: named for screen readers, blank on screen. */
export const ACTIONS_COLUMN = <span className="sr-only">Actions</span>;
