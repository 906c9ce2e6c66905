import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { expect, test } from "vitest";

// Where transactions come from is visible. Domain functions take `(db, input)`
// and never open a transaction; the code that does (it calls providers between transactions,
// or runs a whole pipeline) lives in a `flows/` folder, in the job engine, in the adapters, or in
// the database doors themselves.

const LIB = path.resolve(__dirname, "../../lib");
const OPENS_A_TRANSACTION = /\b(withUser|withService|withServiceStatement)\(/;
const MAY_OPEN = [
  /^db\//, // the doors
  /^adapters\//, // one transaction per route handler or server action
  /^jobs\//, // the job engine and its handlers
  /\/flows\//,
  /^auth\/(context|session)\.ts$/, // identity: the member's memberships and the session's version
];

async function files(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await files(full)));
    else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts")) out.push(full);
  }
  return out;
}

test("only flows, jobs, adapters and the doors open transactions", async () => {
  const offenders: string[] = [];
  for (const full of await files(LIB)) {
    const file = path.relative(LIB, full).split(path.sep).join("/");
    if (MAY_OPEN.some((allowed) => allowed.test(file))) continue;
    if (OPENS_A_TRANSACTION.test(await readFile(full, "utf8"))) offenders.push(file);
  }
  expect(offenders).toEqual([]);
});
