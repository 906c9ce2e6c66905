import type { Writable } from "node:stream";
import type { Db } from "@/lib/db/doors";
import type { ImportRow } from "./validate-import-row";

/** Tag names travel in one column, joined by the unit separator (stripped from names). */
export const TAG_SEPARATOR = "\u001f";

const COLUMNS = [
  "row_number int not null",
  "email text not null",
  "first_name text",
  "last_name text",
  "phone text",
  "address_line1 text",
  "address_line2 text",
  "city text",
  "state text",
  "postal_code text",
  "country text",
  "birth_month int",
  "birth_day int",
  "tags text",
  "note_text text",
  "note_html text",
  "custom_fields jsonb",
];

function values(r: ImportRow): (string | number | null)[] {
  return [
    r.rowNumber,
    r.email,
    r.first_name,
    r.last_name,
    r.phone,
    r.address_line1,
    r.address_line2,
    r.city,
    r.state,
    r.postal_code,
    r.country,
    r.birth_month,
    r.birth_day,
    r.tags.length > 0 ? r.tags.join(TAG_SEPARATOR) : null,
    r.note_text,
    r.note_html,
    r.custom_fields ? JSON.stringify(r.custom_fields) : null,
  ];
}

/** The valid rows of an import, kept in a temporary table until the set-based statements run. */
export interface Staging {
  add(rows: ImportRow[]): Promise<void>;
  /** all rows are in; the table is analysed for the planner */
  finish(): Promise<void>;
  /** stops loading, leaving the transaction usable (the table is dropped at commit) */
  close(): Promise<void>;
  /** stops loading after an unexpected error (a COPY in progress is failed) */
  abort(error: unknown): void;
}

/**
 * Opens the staging table `contact_import_rows` (dropped at commit). Rows go in through
 * COPY where the server speaks it, else (PGlite, whose wire server has no COPY) through
 * multi-row inserts of 2,000 rows each: bulk either way, never a statement per row.
 */
export async function openStaging(db: Db): Promise<Staging> {
  await db`drop table if exists pg_temp.contact_import_rows`;
  await db.unsafe(`create temp table contact_import_rows (${COLUMNS.join(", ")}) on commit drop`);
  const [{ embedded }] = await db<{ embedded: boolean }[]>`select version() like '%PGlite%' as embedded`;
  const staging = embedded ? insertStaging(db) : copyStaging(db);
  return {
    ...staging,
    async finish() {
      await staging.close();
      await db`analyze contact_import_rows`;
    },
  };
}

function copyText(value: string | number | null): string {
  if (value === null) return "\\N";
  if (typeof value === "number") return String(value);
  return value.replace(/[\\\t\n\r]/g, (ch) =>
    ch === "\\" ? "\\\\" : ch === "\t" ? "\\t" : ch === "\n" ? "\\n" : "\\r",
  );
}

/** One COPY for the whole load, opened with the first rows, written with backpressure. */
function copyStaging(db: Db): Omit<Staging, "finish"> {
  let stream: Writable | null = null;
  let failed: Promise<never> | null = null;
  const settle = (wait: Promise<void>) => Promise.race([wait, failed!]);
  return {
    async add(rows) {
      if (!stream) {
        const opened: Writable = await db`copy contact_import_rows from stdin`.writable();
        stream = opened;
        failed = new Promise<never>((_, reject) => opened.once("error", reject));
        failed.catch(() => {});
      }
      let text = "";
      for (const row of rows) text += values(row).map(copyText).join("\t") + "\n";
      const s = stream;
      if (!s.write(text)) await settle(new Promise<void>((resolve) => s.once("drain", () => resolve())));
    },
    async close() {
      const s = stream;
      stream = null;
      if (s) await settle(new Promise<void>((resolve) => s.end(() => resolve())));
    },
    abort(error) {
      stream?.destroy(error instanceof Error ? error : new Error(String(error)));
      stream = null;
    },
  };
}

function insertStaging(db: Db): Omit<Staging, "finish"> {
  const BATCH = 2_000;
  let buffer: ImportRow[] = [];
  const flush = async () => {
    if (buffer.length === 0) return;
    const columns = COLUMNS.map(() => [] as (string | number | null)[]);
    for (const row of buffer) values(row).forEach((v, i) => columns[i].push(v));
    buffer = [];
    const text = (i: number) => columns[i] as string[];
    await db`
      insert into contact_import_rows
      select u.r, u.e, u.fn, u.ln, u.ph, u.a1, u.a2, u.ci, u.st, u.pc, u.co, u.bm, u.bd, u.tg, u.nt, u.nh, u.cf::jsonb
      from unnest(
        ${columns[0] as number[]}::int[], ${text(1)}::text[], ${text(2)}::text[], ${text(3)}::text[],
        ${text(4)}::text[], ${text(5)}::text[], ${text(6)}::text[], ${text(7)}::text[], ${text(8)}::text[],
        ${text(9)}::text[], ${text(10)}::text[], ${columns[11] as number[]}::int[], ${columns[12] as number[]}::int[],
        ${text(13)}::text[], ${text(14)}::text[], ${text(15)}::text[], ${text(16)}::text[])
        as u(r, e, fn, ln, ph, a1, a2, ci, st, pc, co, bm, bd, tg, nt, nh, cf)`;
  };
  return {
    async add(rows) {
      buffer.push(...rows);
      if (buffer.length >= BATCH) await flush();
    },
    close: flush,
    abort() {
      buffer = [];
    },
  };
}
