import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { appendFile, chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect } from "@/lib/db/client";
import { migrate } from "@/lib/db/migrate";
import { installJobs } from "@/lib/jobs/flows/start-worker";
import { freePort } from "./pgbouncer";

/**
 * A primary and a streaming replica of it, two PostgreSQL clusters of their own in a temp dir, as a
 * managed Postgres's read replica is made: initdb for the primary (wal_level=replica and a
 * replication line in pg_hba), pg_basebackup -R for the replica (standby.signal and
 * primary_conninfo written by pg_basebackup). The server refuses to run as root: when this process
 * is root the clusters run as the `postgres` OS user (runuser).
 */

/** The directory of Debian's PostgreSQL binaries (initdb, pg_ctl, pg_basebackup), or null when absent. */
export function postgresBinaries(): string | null {
  const candidates = [
    process.env.PG_BIN,
    ...["18", "17", "16", "15", "14"].map((v) => `/usr/lib/postgresql/${v}/bin`),
  ].filter((d): d is string => !!d);
  return (
    candidates.find((dir) => ["initdb", "pg_ctl", "pg_basebackup"].every((b) => existsSync(`${dir}/${b}`))) ??
    null
  );
}

export interface Cluster {
  port: number;
  dataDir: string;
  /** the superuser's URL of `database` on this cluster */
  url(database?: string): string;
  start(): Promise<void>;
  /** pg_ctl stop -m fast (immediate: a crash, as a failed host) */
  stop(mode?: "fast" | "immediate"): Promise<void>;
}

export interface ReplicaPair {
  primary: Cluster;
  replica: Cluster;
  /** the migrated application database's name on both */
  database: string;
  /** resolves once the replica has replayed everything the primary had written when called */
  caughtUp(timeoutMs?: number): Promise<void>;
  /** both clusters stopped and their directory removed */
  stop(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

function run(bin: string, args: string[], what: string): void {
  const [cmd, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
  const done = spawnSync(cmd, argv, { encoding: "utf8", cwd: "/" });
  if (done.status !== 0)
    throw new Error(`${what} failed (${done.status}): ${(done.stderr || done.stdout || "").slice(-2000)}`);
}

function cluster(bin: string, dataDir: string, port: number): Cluster {
  const log = path.join(path.dirname(dataDir), `${path.basename(dataDir)}.log`);
  return {
    port,
    dataDir,
    url: (database = "postgres") => `postgres://postgres@127.0.0.1:${port}/${database}`,
    async start() {
      run(`${bin}/pg_ctl`, ["-D", dataDir, "-l", log, "-w", "-t", "60", "start"], `starting ${dataDir}`);
    },
    async stop(mode = "fast") {
      if (!existsSync(path.join(dataDir, "postmaster.pid"))) return;
      run(`${bin}/pg_ctl`, ["-D", dataDir, "-m", mode, "-w", "-t", "60", "stop"], `stopping ${dataDir}`);
    },
  };
}

/**
 * Starts the pair and applies the migrations (and the job engine's schema) to `database` on the
 * primary; the replica receives them by streaming. `applyDelayMs` sets the replica's
 * recovery_min_apply_delay: it replays each commit that long after the primary made it.
 */
export async function startReplicaPair(
  options: { applyDelayMs?: number; database?: string; migrate?: boolean } = {},
): Promise<ReplicaPair> {
  const bin = postgresBinaries();
  if (!bin) throw new Error("PostgreSQL server binaries are not installed (apt-get install -y postgresql)");
  const dir = await mkdtemp(path.join(tmpdir(), "replica-pair-"));
  await chmod(dir, 0o755);
  if (asRoot) {
    const id = spawnSync("id", ["-u", "postgres"], { encoding: "utf8" });
    const gid = spawnSync("id", ["-g", "postgres"], { encoding: "utf8" });
    await chown(dir, Number(id.stdout.trim()), Number(gid.stdout.trim()));
  }
  const [primaryPort, replicaPort] = [await freePort(), await freePort()];
  const primaryDir = path.join(dir, "primary");
  const replicaDir = path.join(dir, "replica");
  const primary = cluster(bin, primaryDir, primaryPort);
  const replica = cluster(bin, replicaDir, replicaPort);
  const database = options.database ?? "crm";
  const pair: ReplicaPair = {
    primary,
    replica,
    database,
    async caughtUp(timeoutMs = 30_000) {
      const p = connect(primary.url(), { max: 1 });
      const r = connect(replica.url(), { max: 1 });
      try {
        const [{ lsn }] = await p`select pg_current_wal_insert_lsn()::text as lsn`;
        const deadline = Date.now() + timeoutMs;
        for (;;) {
          const [{ done }] =
            await r`select coalesce(pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn, false) as done`;
          if (done) return;
          if (Date.now() > deadline) throw new Error(`the replica did not replay ${lsn} in ${timeoutMs} ms`);
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      } finally {
        await p.end();
        await r.end();
      }
    },
    async stop() {
      await replica.stop("immediate").catch(() => {});
      await primary.stop("fast").catch(() => primary.stop("immediate").catch(() => {}));
      await rm(dir, { recursive: true, force: true });
    },
  };
  try {
    run(
      `${bin}/initdb`,
      ["-D", primaryDir, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C.UTF-8"],
      "initdb",
    );
    const settings = (port: number) =>
      [
        `port = ${port}`,
        "listen_addresses = '127.0.0.1'",
        `unix_socket_directories = '${dir}'`,
        "wal_level = replica",
        "max_wal_senders = 5",
        "hot_standby = on",
        // a test cluster: durability is not what is tested, speed is welcome
        "fsync = off",
        "full_page_writes = off",
        "shared_buffers = 32MB",
        "max_connections = 200",
        "",
      ].join("\n");
    await appendFile(path.join(primaryDir, "postgresql.conf"), settings(primaryPort));
    await appendFile(path.join(primaryDir, "pg_hba.conf"), "host replication all 127.0.0.1/32 trust\n");
    await primary.start();
    run(
      `${bin}/pg_basebackup`,
      [
        "-h",
        "127.0.0.1",
        "-p",
        String(primaryPort),
        "-U",
        "postgres",
        "-D",
        replicaDir,
        "-R",
        "-X",
        "stream",
      ],
      "pg_basebackup",
    );
    const delay = options.applyDelayMs ? `recovery_min_apply_delay = '${options.applyDelayMs}ms'\n` : "";
    await appendFile(path.join(replicaDir, "postgresql.conf"), settings(replicaPort) + delay);
    await replica.start();

    const admin = connect(primary.url(), { max: 1 });
    await admin.unsafe(`create database "${database}"`);
    await admin.end();
    if (options.migrate !== false) {
      const sql = connect(primary.url(database), { max: 1 });
      await migrate(sql);
      await sql.end();
      await installJobs(primary.url(database));
    }
    await pair.caughtUp();
    return pair;
  } catch (error) {
    await pair.stop();
    throw error;
  }
}
