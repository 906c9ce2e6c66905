/**
 * CSV import (spec 4.15): a generated 100,000-row file (every column filled, 1 to 3 tags a
 * row from 200, a note on 10% of rows, 10% of emails already present) imported into the
 * real Postgres, against a plain COPY of the same rows into contacts in the same run; the same rows under
 * headers that are none of ours, imported through a column mapping, against the import by name;
 * then a 1,000,000-row file through `npm run import`, for the importing process's peak memory.
 */
import { execFile } from "node:child_process";
import { createReadStream } from "node:fs";
import { mkdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { promisify } from "node:util";
import { importContactsCsv } from "../../lib/contacts/import-contacts-csv";
import type { Sql } from "../../lib/db/client";
import { withService, type Db } from "../../lib/db/doors";
import { textToHtml } from "../../lib/notes/text-to-html";
import type { BenchModule } from "./index";
import { benchDatabase, percentile, table } from "./lib/database";
import {
  emailOf,
  FOREIGN_MAPPING,
  isExisting,
  noteOf,
  tagsOf,
  writeCopyCsv,
  writeForeignImportCsv,
  writeImportCsv,
} from "./lib/import-files";
import type { ImportMapping } from "../../lib/contacts/import/import-mapping";
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

async function timeImport(sql: Sql, file: string, mapping: ImportMapping | null = null): Promise<number> {
  const workspaceId = await workspaceWithExisting(sql, ROWS);
  const started = performance.now();
  const result = await withService((db) =>
    importContactsCsv(db, {
      workspaceId,
      file: createReadStream(file, { highWaterMark: 256 * 1024 }),
      markSubscribed: false,
      uploaderIp: null,
      actorUserId: null,
      mapping,
    }),
  );
  const elapsed = performance.now() - started;
  if ("error" in result) throw result.error;
  if (result.data.created + result.data.updated !== ROWS)
    throw new Error(`imported ${JSON.stringify(result.data)}`);
  return elapsed;
}

interface Floor {
  /** the goal's yardstick: the same rows as contacts */
  contacts: number;
  /** the rest of what the import must write: the rows' tags, and their notes */
  tags: number;
  notes: number;
}

const csvCell = (value: string) => `"${value.replaceAll('"', '""')}"`;

async function copyText(tx: Db, statement: string, text: string): Promise<number> {
  const started = performance.now();
  const target = await tx.unsafe(statement).writable();
  await pipeline(Readable.from([text]), target);
  return performance.now() - started;
}

/**
 * The floor under the import: plain COPYs, in one transaction, of everything the import must
 * write for this file: its rows into contacts, their tags (the 200 tags exist) into
 * contact_tags in key order, their notes into notes. Only the COPYs are timed; the ids they
 * need are read between them.
 */
async function timeFloor(sql: Sql, dir: string): Promise<Floor> {
  const [ws] = await sql`insert into workspaces (name) values ('Copy bench') returning id`;
  const file = path.join(dir, "copy.csv");
  await writeCopyCsv(file, ROWS, ws.id);
  const names = [...new Set(Array.from({ length: 200 * 3 }, (_, i) => tagsOf(i)).flat())];
  const tags = await sql<{ id: string; name: string }[]>`
    insert into tags (workspace_id, name) select ${ws.id}, n from unnest(${names}::text[]) n returning id, name`;
  const tagId = new Map(tags.map((t) => [t.name, t.id]));
  return sql.begin(async (tx) => {
    const started = performance.now();
    const target = await tx`copy contacts (workspace_id, email, first_name, last_name, phone, address_line1,
      address_line2, city, state, postal_code, country, birth_month, birth_day) from stdin with (format csv)`.writable();
    await pipeline(createReadStream(file, { highWaterMark: 256 * 1024 }), target);
    const contacts = performance.now() - started;

    const ids = await tx<{ id: string; email: string }[]>`
      select id, email from contacts where workspace_id = ${ws.id}`;
    const contactId = new Map(ids.map((c) => [c.email, c.id]));
    const links: [string, string][] = [];
    let notes = "";
    for (let i = 0; i < ROWS; i++) {
      const id = contactId.get(emailOf(i))!;
      for (const name of tagsOf(i)) links.push([id, tagId.get(name)!]);
      const note = noteOf(i);
      if (note) notes += `${ws.id},${id},contact,${csvCell(textToHtml(note))},${csvCell(note)}\n`;
    }
    links.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const tagRows = links.map(([c, t]) => `${c},${t},${ws.id}\n`).join("");
    return {
      contacts,
      tags: await copyText(
        tx,
        "copy contact_tags (contact_id, tag_id, workspace_id) from stdin with (format csv)",
        tagRows,
      ),
      notes: await copyText(
        tx,
        "copy notes (workspace_id, contact_id, type, content, content_text) from stdin with (format csv)",
        notes,
      ),
    };
  });
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
      const foreign = path.join(dir, "contacts-100k-foreign.csv");
      await writeForeignImportCsv(foreign, ROWS);
      const imports: number[] = [];
      const mappedImports: number[] = [];
      const floors: Floor[] = [];
      for (let i = 0; i < REPEAT; i++) {
        floors.push(await timeFloor(db.sql, dir));
        imports.push(await timeImport(db.sql, file));
        mappedImports.push(await timeImport(db.sql, foreign, FOREIGN_MAPPING));
      }
      const mapped = percentile(mappedImports, 50);
      const imp = percentile(imports, 50);
      const copies = floors.map((f) => f.contacts);
      const copy = percentile(copies, 50);
      const tagCopy = percentile(
        floors.map((f) => f.tags),
        50,
      );
      const noteCopy = percentile(
        floors.map((f) => f.notes),
        50,
      );
      const floor = percentile(
        floors.map((f) => f.contacts + f.tags + f.notes),
        50,
      );
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
          [
            "mapped import (headers not ours, a mapping)",
            (mapped / 1000).toFixed(2),
            mappedImports.map((t) => (t / 1000).toFixed(2)).join(" "),
            Math.round(ROWS / (mapped / 1000)),
          ],
          ["ratio mapped import / import by name", (mapped / imp).toFixed(2), "", ""],
          [
            "  + COPY of the rows' tags into contact_tags",
            (tagCopy / 1000).toFixed(2),
            floors.map((f) => (f.tags / 1000).toFixed(2)).join(" "),
            "",
          ],
          [
            "  + COPY of the rows' notes into notes",
            (noteCopy / 1000).toFixed(2),
            floors.map((f) => (f.notes / 1000).toFixed(2)).join(" "),
            "",
          ],
          ["floor: COPY of everything the import writes", (floor / 1000).toFixed(2), "", ""],
          [
            "ceiling: floor / COPY into contacts",
            (floor / copy).toFixed(2),
            floors.map((f) => ((f.contacts + f.tags + f.notes) / f.contacts).toFixed(2)).join(" "),
            "",
          ],
          ["import / floor (our own cost)", (imp / floor).toFixed(2), "", ""],
        ],
      );
      console.log(
        `the import writes ${ROWS.toLocaleString("en-US")} contacts, their tags and their notes; the goal compares it with ` +
          `the contacts alone, so the best it can reach is the ceiling: ${(floor / copy).toFixed(2)}x` +
          (floor / copy > 1.5 ? " (over the goal: out of reach by the floor)" : ""),
      );
      verdict("CSV import / plain COPY", imp / copy, { atMost: 1.5 });
      verdict("mapped CSV import / import by name", mapped / imp, { atMost: 1.1 });

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
