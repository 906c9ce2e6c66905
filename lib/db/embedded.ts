import { mkdir } from "node:fs/promises";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";
import { wholeExchanges } from "./whole-exchanges";

export interface EmbeddedDatabase {
  url: string;
  db: PGlite;
  stop(): Promise<void>;
}

/**
 * PGlite (Postgres compiled to WASM) served over the Postgres wire protocol, so the app
 * reaches it exactly as it reaches a real server. `dataDir` undefined keeps it in memory
 * (tests); `loadDataDir` starts from a dump (a migrated template, for fast test setup).
 */
export async function startEmbeddedDatabase(options: {
  dataDir?: string;
  port?: number;
  loadDataDir?: Blob | File;
  maxConnections?: number;
}): Promise<EmbeddedDatabase> {
  if (options.dataDir) await mkdir(options.dataDir, { recursive: true });
  // Extensions the migrations create (`create extension if not exists ...`) must be loaded here.
  const db = await PGlite.create({
    dataDir: options.dataDir,
    loadDataDir: options.loadDataDir,
    extensions: { pg_trgm },
  });
  const server = new PGLiteSocketServer({
    db: wholeExchanges(db),
    port: options.port ?? 0,
    host: "127.0.0.1",
    maxConnections: options.maxConnections ?? 16,
  });
  await server.start();
  const url = `postgres://postgres:postgres@${server.getServerConn()}/postgres`;
  return {
    url,
    db,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
