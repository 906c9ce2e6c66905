import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { connect } from "@/lib/db/client";
import { startEmbeddedDatabase, type EmbeddedDatabase } from "@/lib/db/embedded";
import { EditedMigrationError, UnknownMigrationsError, migrate, migrationChecksum } from "@/lib/db/migrate";
import { SCHEMA_SNAPSHOT, dumpMigratedSchema } from "@/lib/db/schema-snapshot";

// One embedded database for the whole file (the unit project boots PGlite once): the runner's
// rules need no real schema, so they run first on two small files, each test in a schema of its
// own (app_meta and the tables dropped between them); then the snapshot migrates the same,
// emptied database in full and dumps it.
let embedded: EmbeddedDatabase;
beforeAll(async () => {
  embedded = await startEmbeddedDatabase({ maxConnections: 2 });
}, 60_000);
afterAll(async () => {
  await embedded?.stop();
});
const RUNNER_LEFTOVERS =
  "drop schema if exists app_meta cascade; drop table if exists public.first, public.second, public.later, public.sneaked_in";

describe("migrate", () => {
  let dir: string;
  let sql: ReturnType<typeof connect>;
  const FILES = {
    "20000101000100_first.sql": "create table public.first (id int);",
    "20000101000200_second.sql": "create table public.second (id int);",
  };

  beforeAll(() => {
    sql = connect(embedded.url, { max: 1 });
  });
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "migrations-"));
    for (const [name, text] of Object.entries(FILES)) await writeFile(path.join(dir, name), text);
    await sql.unsafe(RUNNER_LEFTOVERS);
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));
  afterAll(async () => {
    await sql.unsafe(RUNNER_LEFTOVERS);
    await sql?.end();
  });

  const exists = async (table: string) =>
    (await sql`select to_regclass(${"public." + table}) is not null as found`)[0].found as boolean;

  it("refuses a database made with migration files the folder no longer has, and applies nothing", async () => {
    await migrate(sql, undefined, dir);
    // as a database migrated with the files of before the fold would record them
    await sql`insert into app_meta.migrations (name) values ('20261121000100_platform.sql')`;
    await writeFile(path.join(dir, "29991231000000_later.sql"), "create table public.later (id int);");
    const error = await migrate(sql, undefined, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnknownMigrationsError);
    expect((error as Error).message).toContain("20261121000100_platform.sql");
    expect(await exists("later")).toBe(false);
  });

  it("refuses a database whose applied migration file was edited afterwards, names the file, and applies nothing", async () => {
    expect(await migrate(sql, undefined, dir)).toEqual(Object.keys(FILES));
    const first = "20000101000100_first.sql";
    const [recorded] = await sql`select checksum from app_meta.migrations where name = ${first}`;
    expect(recorded.checksum).toBe(migrationChecksum(FILES[first]));

    await writeFile(path.join(dir, first), FILES[first] + "\ncreate table public.sneaked_in (id int);\n");
    await writeFile(path.join(dir, "29991231000000_later.sql"), "create table public.later (id int);");
    const error = await migrate(sql, undefined, dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EditedMigrationError);
    expect((error as Error).message).toContain(first);
    expect([await exists("later"), await exists("sneaked_in")]).toEqual([false, false]);

    // restored as it was, the database takes the new file
    await writeFile(path.join(dir, first), FILES[first]);
    expect(await migrate(sql, undefined, dir)).toEqual(["29991231000000_later.sql"]);
  });

  it("records the checksum of a migration applied before checksums were kept, then holds it to that", async () => {
    await migrate(sql, undefined, dir);
    await sql`update app_meta.migrations set checksum = null`;
    expect(await migrate(sql, undefined, dir)).toEqual([]);
    const rows = await sql`select name, checksum from app_meta.migrations order by name`;
    expect(rows.map((r) => r.checksum)).toEqual(Object.values(FILES).map(migrationChecksum));
  });
});

describe("supabase/schema.sql", () => {
  it("is the schema the migrations make (run `npm run db:schema` after changing a migration)", async () => {
    const [snapshot, fresh] = await Promise.all([
      readFile(SCHEMA_SNAPSHOT, "utf8"),
      dumpMigratedSchema(undefined, embedded),
    ]);
    expect(
      fresh === snapshot,
      "supabase/schema.sql differs from the migrations: run `npm run db:schema`",
    ).toBe(true);
  }, 180_000);
});
