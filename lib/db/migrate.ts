import { readFile, readdir } from "node:fs/promises";
import path from "node:path";
import type { Sql } from "./client";

const root = process.cwd();
const MIGRATIONS_DIR = path.join(root, "supabase", "migrations");
const AUTH_SHIM = path.join(root, "supabase", "local", "auth.sql");
const LOCK_KEY = 7_320_114_551; // any constant: serialises concurrent starters

/**
 * The database records migrations that are no longer in supabase/migrations: it was made
 * with other files (before the first release the migrations were folded into one file per
 * concern). Nothing is applied then: on top of an unknown history the files would leave a
 * half-applied schema.
 */
export class UnknownMigrationsError extends Error {
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
 * Applies supabase/local/auth.sql (only where Supabase's own auth layer is absent), then
 * each migration file once, in file order, each in its own transaction, recorded in
 * app_meta.migrations. Safe to run from several processes at once. Refuses a database that
 * records a migration the folder does not have (UnknownMigrationsError).
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
    const done = new Set((await tx`select name from app_meta.migrations`).map((r) => r.name as string));
    const files = (await readdir(migrationsDir)).filter((f) => f.endsWith(".sql")).sort();
    const unknown = [...done].filter((name) => !files.includes(name)).sort();
    if (unknown.length > 0) throw new UnknownMigrationsError(unknown);
    for (const file of files) {
      if (done.has(file)) continue;
      await tx.savepoint(async (sp) => {
        await sp.unsafe(await readFile(path.join(migrationsDir, file), "utf8"));
        await sp`insert into app_meta.migrations (name) values (${file})`;
      });
      applied.push(file);
      log(`applied ${file}`);
    }
  });
  return applied;
}
