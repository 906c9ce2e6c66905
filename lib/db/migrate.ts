import { createHash } from "node:crypto";
import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import type { Sql } from "./client";

const root = process.cwd();
const MIGRATIONS_DIR = path.join(root, "supabase", "migrations");
const AUTH_SHIM = path.join(root, "supabase", "local", "auth.sql");
const LOCK_KEY = 7_320_114_551; // any constant: serialises concurrent starters

/** The runner refused the database as it is and applied nothing; the message says what to do. */
export class MigrationRefusedError extends Error {}

/**
 * The database records migrations that are no longer in supabase/migrations: it was made
 * with other files (before the first release the migrations were folded into one file per
 * concern). Nothing is applied then: on top of an unknown history the files would leave a
 * half-applied schema.
 */
export class UnknownMigrationsError extends MigrationRefusedError {
  constructor(readonly names: string[]) {
    super(
      `This database was migrated with files that supabase/migrations no longer has ` +
        `(${names.slice(0, 3).join(", ")}${names.length > 3 ? ", ..." : ""}). ` +
        `Nothing was applied. The migrations were folded before the first release: ` +
        `start from an empty database (for the embedded one, delete .data/ and start again; ` +
        `see README.md, "Database migrations").`,
    );
    this.name = "UnknownMigrationsError";
  }
}

/**
 * A migration file that this database has applied was changed afterwards. Applied migrations are
 * append-only (docs/decisions.md, "Migrations are append-only"): the edit would never reach this
 * database, nor any other that applied the file, so the schemas would drift apart in silence.
 */
export class EditedMigrationError extends MigrationRefusedError {
  constructor(readonly edited: { name: string; recorded: string; now: string }[]) {
    super(
      `Migration files were changed after this database applied them: ` +
        edited
          .map((e) => `${e.name} (applied as sha256 ${e.recorded.slice(0, 12)}…, now ${e.now.slice(0, 12)}…)`)
          .join(", ") +
        `. Nothing was applied. Applied migrations are append-only: restore the file as it was ` +
        `(git log -p supabase/migrations/${edited[0].name}) and put the change in a new migration file.`,
    );
    this.name = "EditedMigrationError";
  }
}

/** The lowercase hex SHA-256 of a migration file's bytes, as app_meta.migrations records it. */
export const migrationChecksum = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

/**
 * Applies supabase/local/auth.sql (only where Supabase's own auth layer is absent), then
 * each migration file once, in file order, each in its own transaction, recorded in
 * app_meta.migrations with the file's checksum. Safe to run from several processes at once.
 * Refuses a database that records a migration the folder does not have (UnknownMigrationsError)
 * or one whose file has changed since it was applied (EditedMigrationError); a row recorded
 * before checksums were kept takes the file's checksum the first time it is seen.
 */
export async function migrate(
  sql: Sql,
  log: (line: string) => void = () => {},
  migrationsDir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const applied: string[] = [];
  await sql.begin(async (tx) => {
    await tx`select pg_advisory_xact_lock(${LOCK_KEY})`;
    const [{ supabase }] = await tx`
      select exists (select 1 from pg_roles where rolname = 'supabase_auth_admin') as supabase`;
    if (!supabase) await tx.unsafe(await readFile(AUTH_SHIM, "utf8"));
    await tx`create schema if not exists app_meta`;
    await tx`revoke all on schema app_meta from public`;
    await tx`create table if not exists app_meta.migrations (
      name text primary key, applied_at timestamptz not null default now())`;
    await tx`alter table app_meta.migrations add column if not exists checksum text`;
    const done = new Map(
      (await tx`select name, checksum from app_meta.migrations`).map((r) => [
        r.name as string,
        r.checksum as string | null,
      ]),
    );
    const files = (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort();
    const unknown = [...done.keys()].filter((name) => !files.includes(name)).sort();
    if (unknown.length > 0) throw new UnknownMigrationsError(unknown);
    const texts = new Map(
      await Promise.all(
        files.map(async (f) => [f, await readFile(path.join(migrationsDir, f), "utf8")] as const),
      ),
    );
    const edited = files.flatMap((name) => {
      const recorded = done.get(name);
      const now = migrationChecksum(texts.get(name)!);
      return recorded && recorded !== now ? [{ name, recorded, now }] : [];
    });
    if (edited.length > 0) throw new EditedMigrationError(edited);
    for (const file of files) {
      const checksum = migrationChecksum(texts.get(file)!);
      if (done.has(file)) {
        if (done.get(file) === null)
          await tx`update app_meta.migrations set checksum = ${checksum} where name = ${file}`;
        continue;
      }
      await tx.savepoint(async (sp) => {
        await sp.unsafe(texts.get(file)!);
        await sp`insert into app_meta.migrations (name, checksum) values (${file}, ${checksum})`;
      });
      applied.push(file);
      log(`applied ${file}`);
    }
  });
  return applied;
}
