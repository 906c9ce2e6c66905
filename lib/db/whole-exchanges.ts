import type { PGlite } from "@electric-sql/pglite";

/**
 * Frontend messages of an extended query before its Sync: Parse, Bind, Describe, Execute, Close,
 * Flush. Every other message (Sync, a simple Query, the startup, Terminate) leaves none open.
 */
const EXTENDED = new Set(["P", "B", "D", "E", "C", "H"].map((c) => c.charCodeAt(0)));

/**
 * PGlite as pglite-socket should see it so that its connections never interleave inside one
 * exchange. pglite-socket (0.2.17) queues the wire protocol message by message and takes them in
 * arrival order from every connection, except while a transaction is open, when it waits for the
 * connection that opened it. An extended query is several messages (Parse, Bind, Describe,
 * Execute, then Sync), and the unnamed statement and portal they use are the session's, so a
 * second connection's Bind arriving between them replaces the first one's portal ('portal ""
 * does not exist', or another connection's rows). Measured with two job workers and a test
 * connection on one embedded database (docs/decisions.md, "The embedded database"). Here a connection whose
 * extended query has begun counts as being in a transaction until its Sync, so pglite-socket serves that
 * connection alone until then; a connection that disconnects in between is rolled back by pglite-socket as
 * for an open transaction, which ends the exchange.
 */
export function wholeExchanges(db: PGlite): PGlite {
  let inExchange = false;
  return new Proxy(db, {
    get(target, property, receiver) {
      if (property === "isInTransaction") return () => inExchange || target.isInTransaction();
      if (property === "execProtocolRawStream")
        return async (message: Uint8Array, options: Parameters<PGlite["execProtocolRawStream"]>[1]) => {
          const open = EXTENDED.has(message[0]);
          if (open) inExchange = true;
          try {
            return await target.execProtocolRawStream(message, options);
          } finally {
            if (!open) inExchange = false;
          }
        };
      if (property === "exec")
        return async (...args: Parameters<PGlite["exec"]>) => {
          inExchange = false; // pglite-socket's ROLLBACK for a connection that went away
          return target.exec(...args);
        };
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
