/**
 * npm run import -- --workspace <workspace id> [--subscribed] [--mapping <mapping.json>] <file.csv>
 *
 * --mapping: a JSON object, header -> target ({"target":"field","name":"email"}, {"target":"tags"},
 * {"target":"note"}, {"target":"skip"}; lib/contacts/import/import-mapping.ts); headers it does not name
 * are matched by name. The mapping is saved for the workspace, as the dashboard saves the one it used.
 *
 * The CSV import of spec 4.15 for files too large for a browser upload: the same domain
 * function, one transaction, as the service identity (no member: notes and consent carry
 * no author, opt_in_ip stays empty). Prints a progress bar and the report, and writes the
 * report beside the file (<file>.import-report.csv). Exit status: 0 imported (some rows
 * may have been skipped, see the report), 1 nothing imported (bad file, or rolled back
 * after an error), 2 wrong usage.
 */
import { createReadStream } from "node:fs";
import { readFile, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { connect, setSql } from "../lib/db/client";
import { withService } from "../lib/db/doors";
import { importContactsCsv, type ImportProgress } from "../lib/contacts/import-contacts-csv";
import { reportSummary, reportToCsv } from "../lib/contacts/import/import-report";
import { parseImportMappingJson, type ImportMapping } from "../lib/contacts/import/import-mapping";
import { isUuid } from "../lib/ids/uuid";

const USAGE =
  "Usage: npm run import -- --workspace <workspace id> [--subscribed] [--mapping <mapping.json>] <file.csv>";

function fail(message: string, code: number): never {
  console.error(message);
  process.exit(code);
}

function progressBar(total: number) {
  const tty = process.stderr.isTTY;
  let lastLine = 0;
  return (p: ImportProgress) => {
    const share = total > 0 ? Math.min(p.bytesRead / total, 1) : 1;
    const width = 30;
    const bar = "#".repeat(Math.round(share * width)).padEnd(width, ".");
    const label =
      p.phase === "reading" ? `reading ${p.rowsRead.toLocaleString("en-US")} rows` : `saving ${p.phase}`;
    const line = `[${bar}] ${(share * 100).toFixed(0).padStart(3)}% ${label}`;
    if (tty) process.stderr.write(`\r${line.padEnd(70)}`);
    else if (Date.now() - lastLine > 2000 || p.phase !== "reading") {
      process.stderr.write(`${line}\n`);
      lastLine = Date.now();
    }
  };
}

async function main() {
  const { values, positionals } = (() => {
    try {
      return parseArgs({
        options: {
          workspace: { type: "string" },
          subscribed: { type: "boolean", default: false },
          mapping: { type: "string" },
        },
        allowPositionals: true,
      });
    } catch (error) {
      return fail(`${(error as Error).message}\n${USAGE}`, 2);
    }
  })();
  const file = positionals[0];
  const workspaceId = values.workspace;
  if (!file || positionals.length > 1 || !workspaceId) fail(USAGE, 2);
  if (!isUuid(workspaceId)) fail(`Not a workspace id: ${workspaceId}`, 2);
  let mapping: ImportMapping | null = null;
  if (values.mapping) {
    const text = await readFile(values.mapping, "utf8").catch(() => fail(`Cannot read ${values.mapping}`, 2));
    const parsed = parseImportMappingJson(text);
    if ("error" in parsed) fail(`${values.mapping}: ${parsed.error.message}`, 2);
    mapping = parsed.data;
  }
  const url = process.env.DATABASE_URL;
  if (!url) fail("Set DATABASE_URL (with the embedded database, npm start prints the address it serves).", 2);
  const size = await stat(file).then(
    (s) => s.size,
    () => fail(`Cannot read ${file}`, 2),
  );

  const sql = connect(url, { max: 1 });
  setSql(sql);
  const [ws] = await sql`select name from public.workspaces where id = ${workspaceId}`;
  if (!ws) {
    await sql.end();
    fail(`No workspace ${workspaceId}`, 2);
  }
  console.error(`Importing ${path.basename(file)} (${(size / 1024 / 1024).toFixed(1)} MB) into '${ws.name}'`);

  let outcome: Awaited<ReturnType<typeof importContactsCsv>>;
  try {
    outcome = await withService((db) =>
      importContactsCsv(db, {
        workspaceId,
        file: createReadStream(file, { highWaterMark: 256 * 1024 }),
        markSubscribed: values.subscribed ?? false,
        uploaderIp: null,
        actorUserId: null,
        onProgress: progressBar(size),
        mapping,
      }),
    );
  } catch (error) {
    console.error(`\nImport rolled back, nothing was changed: ${(error as Error).message}`);
    await sql.end();
    process.exit(1);
  }
  await sql.end();
  process.stderr.write("\n");
  if ("error" in outcome) fail(`Nothing was imported: ${outcome.error.message}`, 1);

  const report = outcome.data;
  for (const [label, count] of reportSummary(report)) console.log(`${label.padEnd(40)} ${count}`);
  for (const e of report.errors.slice(0, 20)) console.log(`  row ${e.row} ${e.email}: ${e.reason}`);
  if (report.errors.length > 20)
    console.log(`  ... and ${report.errors.length - 20} more in the report file`);
  const reportFile = `${file.replace(/\.csv$/i, "")}.import-report.csv`;
  await writeFile(reportFile, reportToCsv(report));
  console.log(`Report written to ${reportFile}`);
  console.log(
    `Took ${(report.durationMs / 1000).toFixed(1)} s; peak memory ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`,
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
