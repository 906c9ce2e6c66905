import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, connect as tcpConnect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";

/** Where Debian's `pgbouncer` package puts the binary, or the one on PATH; null when absent. */
export function pgbouncerBinary(): string | null {
  if (process.env.PGBOUNCER_BIN) return process.env.PGBOUNCER_BIN;
  if (existsSync("/usr/sbin/pgbouncer")) return "/usr/sbin/pgbouncer";
  const found = spawnSync("sh", ["-c", "command -v pgbouncer"], { encoding: "utf8" });
  return found.status === 0 && found.stdout.trim() ? found.stdout.trim() : null;
}

export interface RunningPgBouncer {
  /** `upstream` with host and port replaced by the pooler's (same user, database and parameters) */
  url: string;
  port: number;
  stop(): Promise<void>;
}

/** A TCP port nobody listens on now (the kernel's pick). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * PgBouncer in transaction mode in front of `upstream`'s server, as Supabase's pooler (port
 * 6543) hands out server connections: each transaction to whichever is free. Every database
 * name passes through (`* =`), so the test databases made from the template are reachable by
 * their own names. Trust authentication on loopback only, as the local server's pg_hba has it.
 * The ini and userlist live in a temp dir removed by stop(), which also kills the process.
 */
export async function startPgBouncer(
  upstream: string,
  options: { poolSize?: number; maxClients?: number } = {},
): Promise<RunningPgBouncer> {
  const binary = pgbouncerBinary();
  if (!binary) throw new Error("pgbouncer is not installed (apt-get install -y pgbouncer)");
  const target = new URL(upstream);
  const user = decodeURIComponent(target.username || "postgres");
  const port = await freePort();
  const dir = await mkdtemp(path.join(tmpdir(), "pgbouncer-"));
  await chmod(dir, 0o755); // pgbouncer refuses to run as root: it reads these as `nobody`
  const ini = path.join(dir, "pgbouncer.ini");
  const userlist = path.join(dir, "userlist.txt");
  await writeFile(userlist, `"${user}" ""\n`, { mode: 0o644 });
  await writeFile(
    ini,
    [
      "[databases]",
      `* = host=${target.hostname} port=${target.port || "5432"}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "unix_socket_dir =",
      "auth_type = trust",
      `auth_file = ${userlist}`,
      "pool_mode = transaction",
      `default_pool_size = ${options.poolSize ?? 20}`,
      `max_client_conn = ${options.maxClients ?? 1000}`,
      // postgres.js sends extra_float_digits at startup (node-postgres and Supavisor ignore it too)
      "ignore_startup_parameters = extra_float_digits,options",
      "server_reset_query =",
      "",
    ].join("\n"),
    { mode: 0o644 },
  );
  const args = process.getuid?.() === 0 ? ["-u", "nobody", ini] : [ini];
  const child: ChildProcess = spawn(binary, args, { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr?.on("data", (chunk) => (stderr = (stderr + chunk).slice(-4000)));
  const stopped = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await waitForPort(port, child, () => stderr);
  } catch (error) {
    child.kill("SIGKILL");
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const url = new URL(upstream);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  url.searchParams.delete("host");
  return {
    url: url.toString(),
    port,
    async stop() {
      if (child.exitCode === null) {
        child.kill("SIGINT"); // immediate shutdown
        const timer = setTimeout(() => child.kill("SIGKILL"), 3_000);
        await stopped;
        clearTimeout(timer);
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(port: number, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`pgbouncer exited (${child.exitCode}): ${log()}`);
    const open = await new Promise<boolean>((resolve) => {
      const socket = tcpConnect(port, "127.0.0.1");
      socket.once("connect", () => (socket.destroy(), resolve(true)));
      socket.once("error", () => resolve(false));
    });
    if (open) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`pgbouncer did not listen on ${port}: ${log()}`);
}
