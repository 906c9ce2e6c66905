/**
 * Whether an error means the database could not be reached or could not take the write, so the
 * transaction did not commit (or its commit was not confirmed) for a reason of ours, not the
 * caller's: the connection failed or was closed (SQLSTATE class 08, postgres.js's CONNECTION_*
 * and CONNECT_TIMEOUT, a refused or unreachable connect, a socket reset under a query), the server is shutting down or restarting
 * (57P01-57P03), or the server is a standby that a failover has not promoted
 * (25006 read_only_sql_transaction). The adapters answer it 503 `unavailable` with Retry-After
 * (docs/decisions.md "Failover: the driver picks the primary"); every public write path is safe to
 * repeat, so the caller's retry is the recovery.
 */
export function databaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== "string") return false;
  if (code.startsWith("08") || ["57P01", "57P02", "57P03", "25006"].includes(code)) return true;
  if (code.startsWith("CONNECTION_") || code === "CONNECT_TIMEOUT") return true;
  // a connection that could not be opened: the driver hands on the socket's own error
  const syscall = (error as { syscall?: unknown }).syscall;
  if (syscall === "connect" && ["ECONNREFUSED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"].includes(code))
    return true;
  // a reset is the database's only when the driver rejected a query with it (postgres.js attaches
  // the query); the same codes from a client that hung up are the request's own
  return "query" in error && ["ECONNRESET", "EPIPE", "ETIMEDOUT"].includes(code);
}

/** The Retry-After of a 503 `unavailable`: about what a failover takes (docs/deployment.md "Failover"). */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;
