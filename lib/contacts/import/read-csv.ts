import Papa from "papaparse";

/** A file-level problem: the import stops and nothing is stored. */
export class ImportFileError extends Error {}

export const FILE_ERRORS = {
  empty: "The file is empty.",
  noRows: "The file has a header row but no contacts below it.",
  notCsv: "This is not a CSV file (it contains binary data). Export the sheet as CSV and try again.",
  notUtf8: "The file is not valid UTF-8 text. Save it as 'CSV UTF-8' and try again.",
  unclosedQuote: (row: number) =>
    `Row ${row}: a quoted field is never closed, so the rest of the file cannot be read.`,
  tooLarge: (limit: number) =>
    `The file is larger than ${formatBytes(limit)}. Import it from the command line (npm run import).`,
};

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.floor(bytes / 1024 / 1024)} MB` : `${Math.floor(bytes / 1024)} KB`;
}

export interface CsvRecord {
  /** 1 is the header row; records are numbered as a spreadsheet numbers rows */
  rowNumber: number;
  cells: string[];
  /** a record papaparse could not read cleanly (stray quotes) */
  malformed?: string;
}

/** A record longer than this without an end is an unclosed quote, not data. */
const MAX_PENDING_CHARS = 1_000_000;
const DELIMITERS = [",", ";", "\t", "|"];

function guessLayout(sample: string): { delimiter: string; newline: "\n" | "\r\n" | "\r" } {
  const newline = sample.includes("\r\n")
    ? "\r\n"
    : sample.includes("\n")
      ? "\n"
      : sample.includes("\r")
        ? "\r"
        : "\n";
  const header = sample.split(newline, 1)[0].replace(/"[^"]*"/g, "");
  let delimiter = ",";
  let best = 0;
  for (const candidate of DELIMITERS) {
    const count = header.split(candidate).length - 1;
    if (count > best) [delimiter, best] = [candidate, count];
  }
  return { delimiter, newline };
}

/**
 * Streams CSV records out of a byte source without holding the file: bytes are decoded as
 * strict UTF-8 and cut into records by papaparse's parser, one chunk at a time; only the
 * unfinished last record of a chunk is carried over. Yields the records of each chunk.
 * Throws ImportFileError for binary data, invalid UTF-8, an oversize file or a quote
 * that never closes.
 */
export async function* readCsv(
  source: AsyncIterable<Uint8Array | string>,
  options: { maxBytes?: number; onBytes?: (bytesRead: number) => void } = {},
): AsyncGenerator<CsvRecord[]> {
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let parser: Papa.Parser | null = null;
  let pending = "";
  let bytes = 0;
  let rowNumber = 0;
  let sawText = false;
  // after a parse that consumed nothing (a long quoted value), wait for 64 KiB more text
  // before parsing again, so that a long record is not re-scanned for every small chunk
  let parseAt = 4096;

  const take = (final: boolean): CsvRecord[] => {
    parser ??= new Papa.Parser({ ...guessLayout(pending.slice(0, 65_536)), quoteChar: '"' });
    const result = parser.parse(pending, 0, !final);
    const malformed = new Map<number, string>();
    for (const e of result.errors as Papa.ParseError[]) {
      if (e.code === "MissingQuotes")
        throw new ImportFileError(FILE_ERRORS.unclosedQuote(rowNumber + (e.row ?? 0) + 1));
      if (e.row !== undefined) malformed.set(e.row, "A quoted value has a stray quote.");
    }
    pending = pending.slice(result.meta.cursor);
    const data = result.data as string[][];
    // the newline that ends the file does not start another record
    if (final && data.length > 0 && data[data.length - 1].join("") === "") data.pop();
    return data.map((cells, i) => ({
      rowNumber: ++rowNumber,
      cells,
      ...(malformed.has(i) ? { malformed: malformed.get(i) } : {}),
    }));
  };

  for await (const chunk of source) {
    const data = typeof chunk === "string" ? new TextEncoder().encode(chunk) : chunk;
    bytes += data.byteLength;
    if (options.maxBytes !== undefined && bytes > options.maxBytes)
      throw new ImportFileError(FILE_ERRORS.tooLarge(options.maxBytes));
    if (data.includes(0)) throw new ImportFileError(FILE_ERRORS.notCsv);
    try {
      pending += decoder.decode(data, { stream: true });
    } catch {
      throw new ImportFileError(FILE_ERRORS.notUtf8);
    }
    options.onBytes?.(bytes);
    sawText ||= pending.trim() !== "";
    if (pending.length < parseAt) continue;
    const records = take(false);
    parseAt = records.length > 0 ? 0 : pending.length + 65_536;
    if (pending.length > MAX_PENDING_CHARS)
      throw new ImportFileError(FILE_ERRORS.unclosedQuote(rowNumber + 1));
    if (records.length > 0) yield records;
  }
  try {
    pending += decoder.decode();
  } catch {
    throw new ImportFileError(FILE_ERRORS.notUtf8);
  }
  sawText ||= pending.trim() !== "";
  if (!sawText) throw new ImportFileError(FILE_ERRORS.empty);
  if (pending) {
    const records = take(true);
    if (records.length > 0) yield records;
  }
}
