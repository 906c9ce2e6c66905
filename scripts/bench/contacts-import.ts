/**
 * CSV import (spec 4.15): a generated 100,000-row file (every column filled, 1 to 3 tags a
 * row from 200, a note on 10% of rows, 10% of emails already present) imported into the
 * real Postgres, against a plain COPY of the same rows into contacts in the same run;
 * then a 1,000,000-row file through `npm run import`, for the importing process's peak memory.
 */
import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { importContactsCsv } from "../../lib/contacts/import-contacts-csv";
import type { Sql } from "../../lib/db/client";
import { withService } from "../../lib/db/doors";
import type { BenchModule } from "./index";
import { benchDatabase, percentile, table } from "./lib/database";
import { emailOf, isExisting, writeCopyCsv, writeImportCsv } from "./lib/import-files";
import { verdict } from "./lib/verdict";

const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 100_000);
const BIG_ROWS = Number(process.env.BENCH_IMPORT_BIG_ROWS ?? 1_000_000);
const REPEAT = 3;

async function workspaceWithExisting(sql: Sql, count: number): Promise<string> {
  const [ws] = await sql`insert into workspaces (name) values ('Import bench') returning id`;
  const emails = Array.from({ length: count }, (_, i) => i)
    .filter(isExisting)
    .map(emailOf);
  await sql`insert into contacts (workspace_id, email, first_name, source)
            select ${ws.id}, e, 'Existing', 'form' from unnest(${emails}::text[]) e`;
  await sql`vacuum analyze contacts`;
  return ws.id;
}

async function timeImport(sql: Sql, file: string): Promise<number> {
  const workspaceId = await workspaceWithExisting(sql, ROWS);
  const started = performance.now();
  const result = await withService((db) =>
    importContactsCsv(db, {
      workspaceId,
      file: createReadStream(file, { highWaterMark: 256 * 1024 }),
      markSubscribed: false,
      uploaderIp: null,
      actorUserId: null,
    }),
  );
  const elapsed = performance.now() - started;
  if ("error" in result) throw new Error(result.error);
  if (result.data.created + result.data.updated !== ROWS)
    throw new Error(`imported ${JSON.stringify(result.data)}`);
  return elapsed;
}

async function timeCopy(sql: Sql, dir: string): Promise<number> {
  const [ws] = await sql`insert into workspaces (name) values ('Copy bench') returning id`;
  const file = path.join(dir, "copy.csv");
  await writeCopyCsv(file, ROWS, ws.id);
  const started = performance.now();
  await sql.begin(async (tx) => {
    const target = await tx`copy contacts (workspace_id, email, first_name, last_name, phone, address_line1,
      address_line2, city, state, postal_code, country, birth_month, birth_day) from stdin with (format csv)`.writable();
    await pipeline(createReadStream(file, { highWaterMark: 256 * 1024 }), target);
  });
  return performance.now() - started;
}

const bench: BenchModule = {
  title: `CSV import: ${ROWS.toLocaleString("en-US")} rows vs a plain COPY; ${BIG_ROWS.toLocaleString("en-US")} rows' peak memory`,
  async run(baseUrl) {
    const dir = path.join(tmpdir(), "crm-bench-contacts-import");
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { recursive: true });
    const db = await benchDatabase(baseUrl, "crm_bench_contacts_import");
    try {
      const file = path.join(dir, "contacts-100k.csv");
      await writeImportCsv(file, ROWS);
      const imports: number[] = [];
      const copies: number[] = [];
      for (let i = 0; i < REPEAT; i++) {
        copies.push(await timeCopy(db.sql, dir));
        imports.push(await timeImport(db.sql, file));
      }
      const imp = percentile(imports, 50);
      const copy = percentile(copies, 50);
      const mb = (await stat(file)).size / 1024 / 1024;
      console.log(
        `file: ${mb.toFixed(1)} MB; median of ${REPEAT} runs each (goal: import <= 1.5x a plain COPY)`,
      );
      table(
        ["step", "median s", "runs s", "rows/s"],
        [
          [
            "import (end to end)",
            (imp / 1000).toFixed(2),
            imports.map((t) => (t / 1000).toFixed(2)).join(" "),
            Math.round(ROWS / (imp / 1000)),
          ],
          [
            "plain COPY into contacts",
            (copy / 1000).toFixed(2),
            copies.map((t) => (t / 1000).toFixed(2)).join(" "),
            Math.round(ROWS / (copy / 1000)),
          ],
          ["ratio import / COPY", (imp / copy).toFixed(2), "", ""],
        ],
      );
      verdict("CSV import / plain COPY", imp / copy, { atMost: 1.5 });

      if (BIG_ROWS === 0) return;
      const big = path.join(dir, "contacts-1m.csv");
      await writeImportCsv(big, BIG_ROWS);
      const workspaceId = await workspaceWithExisting(db.sql, BIG_ROWS);
      const u = new URL(baseUrl);
      u.pathname = "/crm_bench_contacts_import";
      const started = performance.now();
      const { stdout } = await promisify(execFile)(
        "npx",
        ["tsx", "scripts/import-contacts.ts", "--workspace", workspaceId, big],
        {
          env: { ...process.env, DATABASE_URL: u.toString() },
          maxBuffer: 16 * 1024 * 1024,
        },
      );
      const seconds = (performance.now() - started) / 1000;
      const peak = /peak memory (\d+) MB/.exec(stdout)?.[1];
      const created = /Contacts created\s+(\d+)/.exec(stdout)?.[1];
      console.log(
        `${BIG_ROWS.toLocaleString("en-US")} rows (${((await stat(big)).size / 1024 / 1024).toFixed(0)} MB) via npm run import: ` +
          `${seconds.toFixed(1)} s, ${created} created, peak memory of the importing process ${peak} MB (goal < 300 MB: ${Number(peak) < 300 ? "met" : "NOT met"})`,
      );
    } finally {
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
