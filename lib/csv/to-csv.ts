import Papa from "papaparse";

/**
 * A cell a spreadsheet could run as a formula (docs/decisions.md, "CSV cells are escaped by
 * our own anchored pattern"): it starts with = + - @ (or their full-width forms), possibly
 * after spaces, or with a tab, CR or LF. Anchored at the start of the whole cell and
 * testing nothing after the first character, so a multi-line cell is caught too: papaparse's
 * own default (/^[=+\-@\t\r].*$/) requires the rest of the cell to hold no line break, and
 * lets "=HYPERLINK(…)\n" through.
 */
export const FORMULA_CELL = /^[\s\u00a0\u3000]*[=+\-@\uff1d\uff0b\uff0d\uff20]|^[\t\r\n]/;

/**
 * Every CSV download goes through here: papaparse's writer (RFC 4180 quoting) with a formula
 * cell prefixed by a quote, so it stays text.
 */
export function toCsv<T>(
  data: T[] | Papa.UnparseObject<T>,
  config: Omit<Papa.UnparseConfig, "escapeFormulae"> = {},
): string {
  return Papa.unparse(data, { ...config, escapeFormulae: FORMULA_CELL });
}
