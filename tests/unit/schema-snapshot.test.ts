import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { connect } from "@/lib/db/client";
import { startEmbeddedDatabase } from "@/lib/db/embedded";
import { UnknownMigrationsError, migrate } from "@/lib/db/migrate";
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
});
