/**
 * npm run db:privileges: regenerate supabase/privileges.json, every privilege anon and
 * authenticated hold in a freshly migrated database (lib/db/privileges.ts). Reasons and
 * admitted roles of entries that still exist are kept; a new entry gets an empty reason, which
 * tests/integration/privilege-manifest.test.ts refuses until someone writes why it exists.
 */
import { readFile, writeFile } from "node:fs/promises";
import { installJobs } from "../lib/jobs/flows/start-worker";
import { withMigratedDatabase } from "../lib/db/schema-snapshot";
import {
  PRIVILEGE_MANIFEST,
  manifestText,
  mergeManifest,
  readPrivileges,
  type ManifestEntry,
} from "../lib/db/privileges";

async function main() {
  const previous: ManifestEntry[] = await readFile(PRIVILEGE_MANIFEST, "utf8").then(
    (text) => JSON.parse(text),
    () => [],
  );
  // the job engine's schema too (pg-boss installs it at the worker's start, as in every test database)
  const catalog = await withMigratedDatabase(async (embedded, sql) => {
    await installJobs(embedded.url, true);
    return readPrivileges(sql);
  });
  const entries = mergeManifest(catalog, previous);
  await writeFile(PRIVILEGE_MANIFEST, manifestText(entries));
  const kept = new Set(entries.map((e) => JSON.stringify({ ...e, reason: undefined, admits: undefined })));
  const dropped = previous.filter(
    (e) => !kept.has(JSON.stringify({ ...e, reason: undefined, admits: undefined })),
  );
  const missing = entries.filter((e) => e.reason === "").length;
  console.log(`wrote ${PRIVILEGE_MANIFEST}: ${entries.length} entries, ${missing} without a reason`);
  for (const e of dropped) console.log(`no longer granted: ${e.kind} ${e.role} ${e.object} ${e.privilege}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
