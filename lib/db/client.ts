import { appendFileSync } from "node:fs";
import postgres from "postgres";
import { metrics } from "@/lib/observability/metrics";

export type Sql = postgres.Sql;

/**
 * Options shared by every connection the app opens. Numerics stay strings (money is
 * converted to integer cents by the caller), `date` columns stay 'YYYY-MM-DD' strings.
 */
export function connect(url: string, options: { max?: number; connectTimeoutSeconds?: number } = {}): Sql {
  const pooled = poolMode(url) === "transaction";
  const socket = unixSocket(stripPoolerHint(url));
  return postgres(socket.url, {
    path: socket.path,
    max: options.max ?? Number(process.env.DATABASE_POOL_SIZE ?? 10),
    idle_timeout: 20,
    ...(options.connectTimeoutSeconds ? { connect_timeout: options.connectTimeoutSeconds } : {}),
    // a transaction pooler hands each transaction to whichever server connection is free: a
    // statement prepared on one is missing on the next (docs/decisions.md "Transaction pooler")
    prepare: !pooled,
    onnotice: () => {},
    debug: sqlLog(),
    types: {
      date: {
        to: 1082,
        from: [1082],
        serialize: (value: string) => value,
        parse: (value: string) => value,
      },
    },
  });
}

/**
 * How `url` reaches the server: "transaction" through a transaction-mode pooler (Supavisor or
 * PgBouncer), "session" directly or through a session-mode pooler. DATABASE_POOL_MODE says it
 * when set (`transaction` or `session`); otherwise the URL does: Supabase's transaction pooler
 * listens on port 6543, and `pgbouncer=true` is the URL parameter Supabase and Prisma document
 * for a PgBouncer in front. Guessing wrong in one direction only costs speed (no prepared
 * statements on a direct connection); the other way fails requests, so the explicit setting wins.
 * DATABASE_DIRECT_URL is a session by definition, whatever DATABASE_POOL_MODE says.
 */
export function poolMode(url: string): "transaction" | "session" {
  if (url === process.env.DATABASE_DIRECT_URL) return "session";
  const explicit = process.env.DATABASE_POOL_MODE?.trim().toLowerCase();
  if (explicit === "transaction" || explicit === "session") return explicit;
  if (explicit) throw new Error(`DATABASE_POOL_MODE must be "transaction" or "session", not "${explicit}"`);
  try {
    const parsed = new URL(url);
    return parsed.port === "6543" || parsed.searchParams.get("pgbouncer") === "true"
      ? "transaction"
      : "session";
  } catch {
    return "session";
  }
}

/** The URL without `pgbouncer=…`, which postgres.js would send to the server as a setting. */
function stripPoolerHint(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.searchParams.has("pgbouncer")) return url;
    parsed.searchParams.delete("pgbouncer");
    return parsed.toString();
  } catch {
    return url;
  }
}

/**
 * The connection for what must have a session of its own, or a long statement a pooler may cut
 * short: migrations and the job engine's schema install and maintenance. DATABASE_DIRECT_URL
 * (Supabase's direct connection, port 5432) when set, else DATABASE_URL.
 */
export function directDatabaseUrl(): string | undefined {
  return process.env.DATABASE_DIRECT_URL || process.env.DATABASE_URL;
}

/**
 * BENCH_SQL_LOG=<file>: every statement the app sends is appended to the file as a JSON line
 * `{c, q, p}` (connection, text, parameters), so the dashboard benchmark can replay a page's
 * own SQL and compare its time with the page's. Unset (always, outside that benchmark): off.
 */
function sqlLog(): postgres.Options<Record<string, postgres.PostgresType>>["debug"] {
  const file = process.env.BENCH_SQL_LOG;
  if (!file) return undefined;
  return (c, q, p) => appendFileSync(file, JSON.stringify({ c, q, p }) + "\n");
}

/**
 * libpq's way to reach a server on the same machine through its Unix socket,
 * `postgres://user@localhost/db?host=/var/run/postgresql`, which postgres.js does not read:
 * the socket skips the TCP stack on every round trip.
 */
export function unixSocket(url: string): { url: string; path?: string } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { url };
  }
  const host = parsed.searchParams.get("host");
  if (!host?.startsWith("/")) return { url };
  parsed.searchParams.delete("host"); // postgres.js would send it to the server as a setting
  return { url: parsed.toString(), path: `${host}/.s.PGSQL.${parsed.port || "5432"}` };
}

const globalForDb = globalThis as unknown as { __crmSql?: Sql };

/**
 * The application's one pool. `DATABASE_URL` is required here: `npm start` sets it to
 * the embedded PGlite server when the user did not, so the app has a single code path.
 */
export function getSql(): Sql {
  if (!globalForDb.__crmSql) {
    const url = process.env.DATABASE_URL;
    if (!url) throw new Error("DATABASE_URL is not set (npm start sets it for the embedded database)");
    // PGlite serves one session: one connection, queries queue in the server.
    const embedded = process.env.DATABASE_EMBEDDED === "1";
    const max = embedded ? 1 : Number(process.env.DATABASE_POOL_SIZE ?? 10);
    globalForDb.__crmSql = connect(url, { max });
    metrics().poolSize.set(max);
  }
  return globalForDb.__crmSql;
}

/** Replaces the pool, for tests and scripts that bring their own database. */
export function setSql(sql: Sql | undefined): void {
  globalForDb.__crmSql = sql;
}
