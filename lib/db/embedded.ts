import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { startGate } from "./embedded-gate";
import { wholeExchanges } from "./whole-exchanges";

export interface EmbeddedDatabase {
  /** postgres://postgres:<password>@127.0.0.1:<port>/postgres */
  url: string;
  db: PGlite;
  stop(): Promise<void>;
}

/**
 * PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so the app
 * reaches it exactly as it reaches a real server. `dataDir` undefined keeps it in memory
 * (tests); `loadDataDir` starts from a dump (a migrated template, for fast test setup).
 *
 * pglite-socket has no authentication: it listens on a Unix socket in a private directory (mode
 * 0700, this user's only) and the TCP address the app is given is a gate that asks for `password`
 * first (lib/db/embedded-gate.ts; docs/decisions.md "The embedded database"). Without one, a
 * random password for this run; the URL carries it.
 */
export async function startEmbeddedDatabase(options: {
  dataDir?: string;
  port?: number;
  loadDataDir?: Blob | File;
  maxConnections?: number;
  password?: string;
}): Promise<EmbeddedDatabase> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  // Extensions the migrations create (`create extension if not exists ...`) must be loaded here.
  const db = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  });
  const socketDir = await mkdtemp(path.join(tmpdir(), "crm-pglite-")); // created 0700
  const socketPath =
    process.platform === "win32"
      ? `\\\\.\\pipe\\${path.basename(socketDir)}`
      : path.join(socketDir, ".s.PGSQL.5432");
  const server = new PGLiteSocketServer({
    db: wholeExchanges(db),
    path: socketPath,
    maxConnections: options.maxConnections ?? 16,
  });
  await server.start();
  const password = options.password ?? randomBytes(24).toString("base64url");
  const gate = await startGate({ host: "127.0.0.1", port: options.port ?? 0, password, target: socketPath });
  const url = `postgres://postgres:${encodeURIComponent(password)}@${gate.address}/postgres`;
  return {
    url,
    db,
    async stop() {
      await gate.close();
      await server.stop();
      await db.close();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}

/**
 * The password of the embedded database `npm start` serves: EMBEDDED_DB_PASSWORD, or a random one
 * made once and kept in `<dataRoot>/db-password` (mode 0600), as AUTH_SECRET's key is, so that a
 * worker or a CLI on this machine can be given it (docs/configuration.md).
 */
export function embeddedDatabasePassword(dataRoot: string): string {
  if (process.env.EMBEDDED_DB_PASSWORD) return process.env.EMBEDDED_DB_PASSWORD;
  const file = path.join(dataRoot, "db-password");
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    const password = randomBytes(24).toString("base64url");
    mkdirSync(dataRoot, { recursive: true });
    writeFileSync(file, password, { mode: 0o600 });
    return password;
  }
}

/** The URL with its password hidden, for printing. */
export function withoutPassword(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString();
}
