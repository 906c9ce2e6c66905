import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { chmod, chown, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { connect } from "@/lib/db/client";
import { freePort } from "./pgbouncer";
import { postgresBinaries } from "./replica";

/**
 * A pg_auto_failover formation from Debian's packages (`postgresql-NN-auto-failover`,
 * `pg-auto-failover-cli`) in a temp dir, as docs/deployment.md "Failover" runs one: a monitor, a
 * primary and a synchronous secondary, each `pg_autoctl create … --run` (its keeper, which starts
 * and watches its PostgreSQL). The monitor's health checks are tightened from their defaults
 * (a check every 5 s, a node unhealthy after 20 s, 30 s for a lost primary to demote itself) so a
 * failover takes seconds, not half a minute; the keepers' network partition timeout is lowered
 * below the demote timeout, as pg_auto_failover requires for a partitioned primary to stop
 * writing before its standby is promoted. The server refuses to run as root: when this process
 * is root, everything runs as the `postgres` OS user (runuser).
 */

export function autoctlBinary(): string | null {
  for (const candidate of [process.env.PG_AUTOCTL, "/usr/bin/pg_autoctl"])
    if (candidate && existsSync(candidate)) return candidate;
  return null;
}

export interface FailoverNode {
  name: string;
  port: number;
  dataDir: string;
  /** the superuser's URL of `database` on this node alone */
  url(database?: string): string;
}

export interface AutoFailover {
  monitorPort: number;
  nodes: FailoverNode[];
  database: string;
  /** libpq's multi-host URL of every node, `target_session_attrs=read-write` */
  url(database?: string): string;
  /** the node that is primary now: up and not in recovery (null: none) */
  primary(): Promise<FailoverNode | null>;
  /** waits until the monitor reports one primary and one secondary; the primary */
  healthy(timeoutMs?: number): Promise<FailoverNode>;
  /** SIGKILL to the node's keeper (its pg_autoctl processes) and its postmaster: a lost host */
  kill(node: FailoverNode): void;
  /** every process stopped, the directory removed */
  stop(): Promise<void>;
}

const asRoot = process.getuid?.() === 0;

const monitorTuning: Record<string, number> = {
  "pgautofailover.health_check_period": 1000,
  "pgautofailover.health_check_timeout": 1000,
  "pgautofailover.health_check_max_retries": 1,
  "pgautofailover.health_check_retry_delay": 500,
  "pgautofailover.node_considered_unhealthy_timeout": 4000,
  "pgautofailover.primary_demote_timeout": 6000,
};

export async function startAutoFailover(options: { database?: string } = {}): Promise<AutoFailover> {
  const autoctl = autoctlBinary();
  const bin = postgresBinaries();
  if (!autoctl || !bin)
    throw new Error("pg_autoctl or the PostgreSQL server binaries are not installed (.ci/run installs them)");
  const dir = await mkdtemp(path.join(tmpdir(), "auto-failover-"));
  await chmod(dir, 0o755);
  if (asRoot) {
    const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
    await chown(dir, uid, gid);
  }
  const database = options.database ?? "crm";
  // pg_autoctl keeps its configuration and state under XDG directories: the temp dir's own
  const env = {
    PATH: `${bin}:/usr/bin:/bin`,
    HOME: dir,
    XDG_CONFIG_HOME: path.join(dir, "config"),
    XDG_DATA_HOME: path.join(dir, "data"),
    XDG_RUNTIME_DIR: path.join(dir, "run"),
    PG_AUTOCTL_DEBUG: "",
  };
  const envArgs = Object.entries(env).map(([k, v]) => `${k}=${v}`);
  const command = (args: string[]) =>
    asRoot
      ? { cmd: "runuser", argv: ["-u", "postgres", "--", "env", ...envArgs, autoctl, ...args] }
      : { cmd: "env", argv: [...envArgs, autoctl, ...args] };
  const services = new Map<string, ChildProcess>();
  const service = (name: string, args: string[]) => {
    const { cmd, argv } = command(args);
    const child = spawn(cmd, argv, { cwd: "/", detached: true, stdio: ["ignore", "ignore", "pipe"] });
    let tail = "";
    child.stderr!.on("data", (chunk: Buffer) => {
      tail = (tail + chunk.toString()).slice(-4000);
      if (process.env.TOPOLOGY_VERBOSE === "1") process.stdout.write(`[${name}] ${chunk}`);
    });
    child.once("exit", (code, signal) => {
      if (!stopping && !killed.has(name))
        console.log(`[${name}] pg_autoctl exited ${code ?? signal}:\n${tail.slice(-1500)}`);
    });
    services.set(name, child);
  };
  const killed = new Set<string>();
  let stopping = false;

  const monitorPort = await freePort();
  const monitorDir = path.join(dir, "monitor");
  const monitorUrl = `postgres://postgres@127.0.0.1:${monitorPort}/pg_auto_failover`;
  const node = (name: string, port: number): FailoverNode => ({
    name,
    port,
    dataDir: path.join(dir, name),
    url: (db = database) => `postgres://postgres@127.0.0.1:${port}/${db}`,
  });
  const nodes = [node("node_1", await freePort()), node("node_2", await freePort())];
  const common = ["--hostname", "127.0.0.1", "--auth", "trust", "--no-ssl", "--pgctl", `${bin}/pg_ctl`];

  const stateOf = async () => {
    const monitor = connect(monitorUrl, { max: 1, connectTimeoutSeconds: 2 });
    try {
      return await monitor<{ nodeport: number; reportedstate: string; goalstate: string }[]>`
        select nodeport, reportedstate::text, goalstate::text from pgautofailover.node`;
    } finally {
      await monitor.end({ timeout: 1 });
    }
  };
  const until = async <T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = await probe().catch(() => null);
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`pg_auto_failover: ${what} within ${timeoutMs / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };

  const formation: AutoFailover = {
    monitorPort,
    nodes,
    database,
    url: (db = database) =>
      `postgres://postgres@${nodes.map((n) => `127.0.0.1:${n.port}`).join(",")}/${db}?target_session_attrs=read-write`,
    async primary() {
      // asked of the nodes themselves: the monitor keeps a dead primary's last reported state
      for (const n of nodes) {
        const sql = connect(n.url("postgres"), { max: 1, connectTimeoutSeconds: 2 });
        try {
          const [row] = await sql<{ recovering: boolean }[]>`select pg_is_in_recovery() as recovering`;
          if (!row.recovering) return n;
        } catch {
          /* down */
        } finally {
          await sql.end({ timeout: 1 }).catch(() => {});
        }
      }
      return null;
    },
    async healthy(timeoutMs = 120_000) {
      return until("no primary with a healthy secondary", timeoutMs, async () => {
        const rows = await stateOf();
        const primary = rows.find((r) => r.reportedstate === "primary" && r.goalstate === "primary");
        const secondary = rows.find((r) => r.reportedstate === "secondary" && r.goalstate === "secondary");
        return primary && secondary ? (nodes.find((n) => n.port === primary.nodeport) ?? null) : null;
      });
    },
    kill(target) {
      killed.add(target.name);
      const keeper = services.get(target.name);
      try {
        process.kill(-keeper!.pid!, "SIGKILL"); // runuser, pg_autoctl and its sub-processes
      } catch {
        /* gone */
      }
      const pid = postmasterPid(target.dataDir);
      if (pid)
        try {
          process.kill(pid, "SIGKILL");
        } catch {
          /* gone */
        }
    },
    async stop() {
      stopping = true;
      for (const [, child] of services)
        try {
          process.kill(-child.pid!, "SIGTERM"); // pg_autoctl stops its PostgreSQL (fast)
        } catch {
          /* gone */
        }
      const deadline = Date.now() + 15_000;
      while (
        Date.now() < deadline &&
        [...services.values()].some((c) => c.exitCode === null && c.signalCode === null)
      )
        await new Promise((resolve) => setTimeout(resolve, 200));
      for (const [, child] of services)
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          /* gone */
        }
      // a postmaster its keeper did not stop (a killed keeper's) goes down with SIGKILL; its
      // children follow the postmaster's death
      for (const dataDir of [monitorDir, ...nodes.map((n) => n.dataDir)]) {
        const pid = postmasterPid(dataDir);
        if (pid)
          try {
            process.kill(pid, "SIGKILL");
          } catch {
            /* gone */
          }
      }
      await new Promise((resolve) => setTimeout(resolve, 500));
      await rm(dir, { recursive: true, force: true });
    },
  };

  try {
    service("monitor", [
      "create",
      "monitor",
      "--pgdata",
      monitorDir,
      "--pgport",
      String(monitorPort),
      ...common,
      "--run",
    ]);
    await until("the monitor did not start", 60_000, async () => (await stateOf()) && true);
    const tune = connect(monitorUrl, { max: 1 });
    for (const [name, value] of Object.entries(monitorTuning))
      await tune.unsafe(`alter system set ${name} = ${value}`);
    await tune`select pg_reload_conf()`;
    await tune.end();

    const monitorForNodes = `postgres://autoctl_node@127.0.0.1:${monitorPort}/pg_auto_failover?sslmode=disable`;
    for (const [index, n] of nodes.entries()) {
      service(n.name, [
        "create",
        "postgres",
        "--pgdata",
        n.dataDir,
        "--pgport",
        String(n.port),
        "--name",
        n.name,
        "--dbname",
        database,
        "--monitor",
        monitorForNodes,
        ...common,
        "--run",
      ]);
      if (index === 0)
        await until("the first node did not become primary", 90_000, async () =>
          (await stateOf()).some(
            (r) => r.nodeport === n.port && ["single", "wait_primary"].includes(r.reportedstate),
          ),
        );
    }
    // the secondary's pg_basebackup waits for a checkpoint, which the primary spreads over minutes
    const primaryAdmin = connect(nodes[0].url("postgres"), { max: 1 });
    try {
      await until("the secondary did not catch up", 120_000, async () => {
        await primaryAdmin`checkpoint`;
        const rows = await stateOf();
        return rows.some((r) => r.nodeport === nodes[1].port && r.reportedstate === "secondary") || null;
      });
    } finally {
      await primaryAdmin.end();
    }
    // each keeper's own timeout for a primary that lost the monitor and its standby: below the
    // monitor's demote timeout (pg_auto_failover's rule), so a partitioned primary stops first
    for (const n of nodes) {
      const { cmd, argv } = command([
        "config",
        "set",
        "--pgdata",
        n.dataDir,
        "timeout.network_partition_timeout",
        "4",
      ]);
      spawnSync(cmd, argv, { cwd: "/", encoding: "utf8" });
    }
    // a test formation: durability is not what is tested (the commit still waits for the
    // synchronous standby), and fsync on a shared disk made each commit take a second
    for (const n of nodes) {
      const admin = connect(n.url("postgres"), { max: 1 });
      try {
        await admin`alter system set fsync = off`;
        await admin`alter system set full_page_writes = off`;
        await admin`select pg_reload_conf()`;
      } catch {
        /* a standby that refuses keeps its defaults */
      } finally {
        await admin.end();
      }
    }
    await formation.healthy();
    return formation;
  } catch (error) {
    await formation.stop();
    throw error;
  }
}

function postmasterPid(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}
