/**
 * npm run db:schema: regenerate supabase/schema.sql, the schema of a freshly migrated
 * database (see lib/db/schema-snapshot.ts). `npm test` fails while it differs from what
 * the migrations make (tests/unit/schema-snapshot.test.ts).
 */
import { writeFile } from "node:fs/promises";
import { SCHEMA_SNAPSHOT, dumpMigratedSchema } from "../lib/db/schema-snapshot";

dumpMigratedSchema()
  .then(async (text) => {
    await writeFile(SCHEMA_SNAPSHOT, text);
    console.log(`wrote ${SCHEMA_SNAPSHOT}`);
  })
  .catch((error) => {
    console.error(error);
    process.exit(1);
  });
