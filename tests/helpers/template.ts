import path from "node:path";

/** The migrated PGlite data directory every test file starts from (built by global-setup). */
export const TEMPLATE_DUMP = path.resolve(__dirname, "../../.data/test/template.tar.gz");

/** The real-Postgres template database beside DATABASE_URL's database. */
export function templateDatabaseUrl(url: string): string {
  const u = new URL(url);
  u.pathname = `/${u.pathname.slice(1) || "postgres"}_template`;
  return u.toString();
}
