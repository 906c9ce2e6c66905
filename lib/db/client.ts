import { appendFileSync } from "node:fs";
import postgres from "postgres";
import { metrics } from "@/lib/observability/metrics";

export type Sql = postgres.Sql;

/**
 * Options shared by every connection the app opens. Numerics stay strings (money is
 * converted to integer cents by the caller), `date` columns stay 'YYYY-MM-DD' strings.
 *
 * `url` may name several hosts with `target_session_attrs` (libpq's multi-host form, DESIGN.md
 * section 9 "Failover"): postgres.js tries them in turn for every new connection and keeps the
 * first that matches. Its own check of `read-write` accepted a hot standby, and a connection that
 * lost its socket mid-write threw from a timer; both are fixed by patches/postgres+3.4.9.patch
 * (docs/decisions.md "Failover: the driver picks the primary").
 */
export function connect(url: string, options: { max?: number; connectTimeoutSeconds?: number } = {}): Sql {
  const pooled = poolMode(url) === "transaction";
  const socket = unixSocket(stripPoolerHint(url));
  return postgres(socket.url, {
    path: socket.path,
    max: options.max ?? Number(process.env.DATABASE_POOL_SIZE ?? 10),
    idle_timeout: 20,
    // after a failed connect, the next try of a connection waits this long (seconds; `retries`
    // counts the pool's failures since its last success). postgres.js's own backoff grows to 20 s,
    // so a pool that saw the database go for a few seconds came back up to 20 s after it did
    backoff: reconnectBackoff,
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

/** 50 ms doubling to 1 s, with jitter so a pool's connections do not knock at once. */
export function reconnectBackoff(retries: number): number {
  return Math.min(1, 0.05 * 2 ** retries) * (0.5 + Math.random() / 2);
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
  const parsed = parseDatabaseUrl(url);
  if (!parsed) return "session";
  return parsed.port === "6543" || parsed.searchParams.get("pgbouncer") === "true"
    ? "transaction"
    : "session";
}

/**
 * The host list of libpq's multi-host form, `postgres://user@h1:5432,h2:5432/db?…` (DESIGN.md
 * section 9 "Failover"), or null for a URL of one host. WHATWG's URL refuses such a host, so the
 * helpers below read and edit the URL with the first host in place of the list.
 */
export function hostList(url: string): string | null {
  const match = /^[a-z][a-z0-9+.-]*:\/\/(?:[^@/?#]*@)?([^/?#]*)/i.exec(url);
  return match && match[1].includes(",") ? match[1] : null;
}

/** The URL as WHATWG parses it (a multi-host URL with its first host), or null when it does not parse. */
export function parseDatabaseUrl(url: string): URL | null {
  const hosts = hostList(url);
  try {
    return new URL(hosts ? url.replace(hosts, hosts.split(",")[0]) : url);
  } catch {
    return null;
  }
}

/** `edit` applied to the URL's query string, user and path; a multi-host list is kept as it was. */
function editDatabaseUrl(url: string, edit: (parsed: URL) => void): string {
  const hosts = hostList(url);
  const placeholder = "multi-host.invalid";
  let parsed: URL;
  try {
    parsed = new URL(hosts ? url.replace(hosts, placeholder) : url);
  } catch {
    return url;
  }
  edit(parsed);
  const text = parsed.toString();
  return hosts ? text.replace(placeholder, hosts) : text;
}

/** The URL without `pgbouncer=…`, which postgres.js would send to the server as a setting. */
function stripPoolerHint(url: string): string {
  if (!parseDatabaseUrl(url)?.searchParams.has("pgbouncer")) return url;
  return editDatabaseUrl(url, (parsed) => parsed.searchParams.delete("pgbouncer"));
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
  if (hostList(url)) return { url }; // several hosts: TCP to each (postgres.js takes one socket path)
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
