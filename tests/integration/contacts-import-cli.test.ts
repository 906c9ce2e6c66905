import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();
const run = promisify(execFile);

async function importCli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    // node with tsx's loader: one process, not npx's and tsx's wrappers around it
    const { stdout, stderr } = await run(
      process.execPath,
      ["--import", "tsx", "scripts/import-contacts.ts", ...args],
      {
        env: { ...process.env, DATABASE_URL: db.url },
      },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function csvFile(content: string): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), "import-cli-"));
  const file = path.join(dir, "contacts.csv");
  await writeFile(file, content);
  return file;
}

describe("CSV import from the command line (npm run import)", () => {
  test("npm run import: imports as the service identity, prints the report and writes it beside the file", async () => {
    const ws = await createWorkspace(db.sql);
    const file = await csvFile("Email,First Name\ncli@example.com,Cleo\nbroken,Bad\n");
    const { code, stdout } = await importCli(["--workspace", ws.id, "--subscribed", file]);
    expect(code).toBe(0);
    expect(stdout).toContain("Contacts created                         1");
    expect(stdout).toContain("row 3 broken: Email is not a valid address.");
    const report = await readFile(file.replace(/\.csv$/, ".import-report.csv"), "utf8");
    expect(report).toContain("Row,Email,Reason\r\n3,broken,Email is not a valid address.");
    const rows =
      await db.sql`select email, first_name, opt_in_source, created_by from contacts where workspace_id = ${ws.id}`;
    expect(rows).toEqual([
      { email: "cli@example.com", first_name: "Cleo", opt_in_source: "CSV Import", created_by: null },
    ]);
  }, 60_000);

  test("npm run import: exits non-zero when the import was rolled back, and nothing changed", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id, { email: "keep@example.com", first_name: "Keep" });
    await db.sql`create or replace function fail_cli_notes() returns trigger language plpgsql as $$
      begin raise exception 'injected failure'; end $$`;
    await db.sql`create trigger fail_cli_notes before insert on notes for each row execute function fail_cli_notes()`;
    try {
      const file = await csvFile(
        "email,first_name,notes\nkeep@example.com,Changed,a note\nnew@example.com,New,\n",
      );
      const { code, stderr } = await importCli(["--workspace", ws.id, file]);
      expect(code).toBe(1);
      expect(stderr).toContain("Import rolled back, nothing was changed: injected failure");
    } finally {
      await db.sql`drop trigger fail_cli_notes on notes`;
    }
    const rows = await db.sql`select email, first_name from contacts where workspace_id = ${ws.id}`;
    expect(rows).toEqual([{ email: "keep@example.com", first_name: "Keep" }]);
  }, 60_000);

  test("npm run import: a bad file or wrong usage exits non-zero with a clear message", async () => {
    const ws = await createWorkspace(db.sql);
    const file = await csvFile("name\nNo email column\n");
    const bad = await importCli(["--workspace", ws.id, file]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("Nothing was imported: The file has no email column.");
    const usage = await importCli([file]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain(
      "Usage: npm run import -- --workspace <workspace id> [--subscribed] [--mapping <mapping.json>] <file.csv>",
    );
  }, 60_000);

  test("npm run import --mapping: a file whose headers are not ours is imported through the mapping file; a bad mapping file changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const file = await csvFile("Correo,Nombre,Etiquetas\ncli-map@example.com,Cleo,a;b\n");
    const mapping = path.join(path.dirname(file), "mapping.json");
    await writeFile(
      mapping,
      JSON.stringify({
        Correo: { target: "field", name: "email" },
        Nombre: { target: "field", name: "first_name" },
        Etiquetas: { target: "tags" },
      }),
    );
    const { code } = await importCli(["--workspace", ws.id, "--mapping", mapping, file]);
    expect(code).toBe(0);
    expect(await db.sql`select email, first_name from contacts where workspace_id = ${ws.id}`).toEqual([
      { email: "cli-map@example.com", first_name: "Cleo" },
    ]);
    expect(await db.sql`select count(*)::int as n from contact_tags where workspace_id = ${ws.id}`).toEqual([
      { n: 2 },
    ]);

    await writeFile(mapping, JSON.stringify({ Correo: { target: "address" } }));
    const bad = await importCli(["--workspace", ws.id, "--mapping", mapping, file]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("The column mapping is not valid (column 'Correo')");
  }, 60_000);
});
