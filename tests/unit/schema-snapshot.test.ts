import { cp, mkdtemp, readFile, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connect } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { EditedMigrationError, UnknownMigrationsError, migrate, migrationChecksum } from "@/lib/db/migrate";
import { SCHEMA_SNAPSHOT, dumpMigratedSchema } from "@/lib/db/schema-snapshot";

const MIGRATIONS = path.join(process.cwd(), "supabase", "migrations");

describe("supabase/schema.sql", () => {
  it("is the schema the migrations make (run `npm run db:schema` after changing a migration)", async () => {
    const [snapshot, fresh] = await Promise.all([readFile(SCHEMA_SNAPSHOT, "utf8"), dumpMigratedSchema()]);
    expect(
      fresh === snapshot,
      "supabase/schema.sql differs from the migrations: run `npm run db:schema`",
    ).toBe(true);
  }, 180_000);
});

describe("migrate", () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it("refuses a database made with migration files the folder no longer has, and applies nothing", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "migrations-"));
    dirs.push(dir);
    await cp(MIGRATIONS, dir, { recursive: true });
    const embedded = await startEmbeddedDatabase({ maxConnections: 2 });
    const sql = connect(embedded.url, { max: 1 });
    try {
      await migrate(sql, undefined, dir);
      // as a database migrated with the files of before the fold would record them
      await sql`insert into app_meta.migrations (name) values ('20261121000100_platform.sql')`;
      await writeFile(path.join(dir, "29991231000000_later.sql"), "create table public.later (id int);");
      const error = await migrate(sql, undefined, dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnknownMigrationsError);
      expect((error as Error).message).toContain("20261121000100_platform.sql");
      const [{ later }] = await sql`select to_regclass('public.later') is not null as later`;
      expect(later).toBe(false);
    } finally {
      await sql.end();
      await embedded.stop();
    }
  }, 180_000);

  it("refuses a database whose applied migration file was edited afterwards, names the file, and applies nothing", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "migrations-"));
    dirs.push(dir);
    await cp(MIGRATIONS, dir, { recursive: true });
    const embedded = await startEmbeddedDatabase({ maxConnections: 2 });
    const sql = connect(embedded.url, { max: 1 });
    try {
      await migrate(sql, undefined, dir);
      const [first] = (await readdir(dir)).filter((f) => f.endsWith(".sql")).sort();
      const original = await readFile(path.join(dir, first), "utf8");
      const [recorded] = await sql`select checksum from app_meta.migrations where name = ${first}`;
      expect(recorded.checksum).toBe(migrationChecksum(original));

      await writeFile(path.join(dir, first), original + "\ncreate table public.sneaked_in (id int);\n");
      await writeFile(path.join(dir, "29991231000000_later.sql"), "create table public.later (id int);");
      const error = await migrate(sql, undefined, dir).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(EditedMigrationError);
      expect((error as Error).message).toContain(first);
      const [state] = await sql`
        select to_regclass('public.later') is not null as later,
               to_regclass('public.sneaked_in') is not null as sneaked_in`;
      expect(state).toEqual({ later: false, sneaked_in: false });

      // restored as it was, the database takes the new file
      await writeFile(path.join(dir, first), original);
      expect(await migrate(sql, undefined, dir)).toEqual(["29991231000000_later.sql"]);
    } finally {
      await sql.end();
      await embedded.stop();
    }
  }, 180_000);

  it("records the checksum of a migration applied before checksums were kept, then holds it to that", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "migrations-"));
    dirs.push(dir);
    await cp(MIGRATIONS, dir, { recursive: true });
    const embedded = await startEmbeddedDatabase({ maxConnections: 2 });
    const sql = connect(embedded.url, { max: 1 });
    try {
      await migrate(sql, undefined, dir);
      await sql`update app_meta.migrations set checksum = null`;
      expect(await migrate(sql, undefined, dir)).toEqual([]);
      const [{ missing }] =
        await sql`select count(*) filter (where checksum is null)::int as missing from app_meta.migrations`;
      expect(missing).toBe(0);
    } finally {
      await sql.end();
      await embedded.stop();
    }
  }, 180_000);
});
