/**
 * npm run test:topology: the service as a scaled deployment runs it (docs/deployment.md), with
 * the same components on this machine, each started as a user would start it:
 * - a PostgreSQL primary and a streaming replica of it (tests/helpers/replica.ts), PgBouncer in
 *   transaction mode in front of the primary (tests/helpers/pgbouncer.ts);
 * - the integration suite's Postgres pass through the pooler (TEST_POOLER=1), a named subset
 *   with at least one file of every area, the job crash tests among them (a worker SIGKILLed
 *   mid-work); TOPOLOGY_INTEGRATION=all runs every file;
 * - two web processes (`npm start`, JOBS_WORKER=0, the existing `next build` or one made now)
 *   with DATABASE_URL on the pooler, DATABASE_DIRECT_URL on the primary and DATABASE_READ_URL on
 *   the replica, and two workers (`npm run worker`);
 * - browser specs against the first web process while a load loop sends half its requests to
 *   the second; one worker is SIGKILLed during them and the other carries the jobs on;
 * - at the end, both web processes' counts of reads by target (crm_db_reads_total);
 * - the failover case (scripts/topology-failover.ts): a pg_auto_failover monitor, primary and
 *   synchronous secondary, `npm start` on their multi-host URL under form, RSVP, webhook and API
 *   load, the primary SIGKILLed; no acknowledged write lost, no email twice, answers again within
 *   30 s, the worker resumed.
 * `npm run test:topology -- failover` runs only the failover case, `-- scaled` only the rest.
 * Prints each stage's time. Exits 0 with a printed reason, doing nothing, only when pgbouncer or
 * the PostgreSQL server binaries are not installed (.ci/run installs them); pg_auto_failover's
 * packages are installed from Debian here when missing and this process may (root with apt-get),
 * as .ci/run does for PgBouncer.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import path from "node:path";
import { hashApiKey, newApiKey } from "../lib/api-keys/hash-api-key";
import { connect } from "../lib/db/client";
import { pgbouncerBinary, freePort, startPgBouncer, type RunningPgBouncer } from "../tests/helpers/pgbouncer";
import { postgresBinaries, startReplicaPair, type ReplicaPair } from "../tests/helpers/replica";
import { startFakes, type RunningFakes } from "../tests/fakes";
import { ensureBrowser } from "./test-browser";
import { autoctlBinary, failoverCase } from "./topology-failover";

/** One file or more of every area; the job crash tests (a worker killed mid-work) among them. */
const INTEGRATION_SUBSET = [
  "accounts-sessions", // accounts
  "audit-log", // audit
  "auth",
  "broadcasts", // email campaigns
  "consent-state-machine", // consent
  "contacts-create-update", // contacts
  "contacts-list",
  "contacts-import",
  "dashboard-aggregates", // dashboard
  "email-webhook", // email provider webhooks
  "events-capacity-calendar", // events
  "forms-pipeline", // forms
  "invitations", // members
  "members",
  "jobs-broadcast", // jobs: a broadcast worker killed mid-send
  "jobs-contact-import", // jobs: an import worker killed mid-file
  "jobs-ticketing-kill", // jobs: a delivery answered just before a SIGKILL
  "jobs-sweeps",
  "list-paging",
  "merge-contact",
  "operations-endpoints", // readiness, metrics
  "outbound-webhooks",
  "payments-checkout", // payments
  "payments-webhook",
  "payments-refunds",
  "privacy-requests", // privacy
  "public-events-api", // the public API
  "rate-limit",
  "rsvp",
  "security-rls", // security
  "security-database-boundary",
  "send-email",
  "settings",
  "tags",
  "ticketing-order-placed", // ticketing
  "two-factor",
  "read-replica", // the read replica (its own clusters)
].map((name) => `tests/integration/${name}.test.ts`);

/** Browser specs run against the first web process. */
const BROWSER_SPECS = ["contacts", "events", "jobs", "contacts-import-job", "dashboard-privacy"].map(
  (name) => `tests/e2e/${name}.spec.ts`,
);

const timings: { stage: string; seconds: number; ok: boolean }[] = [];
const children: ChildProcess[] = [];

async function stage<T>(name: string, fn: () => Promise<T>): Promise<T> {
  console.log(`\n=== topology: ${name}`);
  const started = Date.now();
  try {
    const result = await fn();
    timings.push({ stage: name, seconds: (Date.now() - started) / 1000, ok: true });
    console.log(`=== topology: ${name}: ok in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return result;
  } catch (error) {
    timings.push({ stage: name, seconds: (Date.now() - started) / 1000, ok: false });
    console.log(`=== topology: ${name}: FAILED in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    throw error;
  }
}

/** A command to its end, its output on ours; rejects unless it exits 0. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: "inherit", env });
    child.once("exit", (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(" ")} exited ${code ?? signal}`)),
    );
  });
}

/** A long-running process (a web server, a worker) with its output prefixed by `name`. */
function start(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const child = spawn(cmd, args, { env, stdio: ["ignore", "pipe", "pipe"], detached: true });
  const quiet = process.env.TOPOLOGY_VERBOSE !== "1";
  const prefix = (chunk: Buffer) => {
    const lines = chunk.toString().split("\n").filter(Boolean);
    // the JSON request log is long: without TOPOLOGY_VERBOSE only warnings and errors are shown
    for (const line of lines)
      if (!quiet || !line.startsWith("{") || /"level":(40|50|60)/.test(line))
        console.log(`[${name}] ${line}`);
  };
  child.stdout!.on("data", prefix);
  child.stderr!.on("data", prefix);
  child.once("exit", (code, signal) => console.log(`[${name}] exited ${code ?? signal}`));
  children.push(child);
  return child;
}

/** Stops a process group started by start(): SIGTERM, then SIGKILL after `graceMs`. */
async function stop(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  try {
    process.kill(-child.pid!, "SIGTERM");
  } catch {
    return;
  }
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, "SIGKILL");
    } catch {
      /* gone */
    }
  }, graceMs);
  await exited;
  clearTimeout(timer);
}

async function waitForOk(url: string, what: string, timeoutMs = 180_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${what} was not ready at ${url} within ${timeoutMs / 1000} s`);
}

/** crm_db_reads_total of one web process, by `target/reason`. */
async function readsOf(base: string, token: string): Promise<Record<string, number>> {
  const text = await (
    await fetch(`${base}/api/metrics`, { headers: { authorization: `Bearer ${token}` } })
  ).text();
  const counts: Record<string, number> = {};
  for (const m of text.matchAll(/^crm_db_reads_total\{([^}]*)\} (\S+)$/gm)) {
    const labels = Object.fromEntries([...m[1].matchAll(/(\w+)="([^"]*)"/g)].map((l) => [l[1], l[2]]));
    counts[`${labels.target}/${labels.reason}`] = Number(m[2]);
  }
  return counts;
}

/**
 * pg_auto_failover from Debian (`postgresql-NN-auto-failover` for the installed server's major,
 * and `pg-auto-failover-cli`), installed when missing and this process is root with apt-get, as
 * .ci/run installs PgBouncer. The path of pg_autoctl, or null when it is not there.
 */
function ensureAutoFailover(postgresBin: string): string | null {
  const found = autoctlBinary();
  if (found || process.getuid?.() !== 0 || spawnSync("which", ["apt-get"]).status !== 0) return found;
  const major = /postgresql\/(\d+)\//.exec(postgresBin)?.[1];
  console.log(`--- installing Debian's postgresql-${major}-auto-failover and pg-auto-failover-cli`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  spawnSync("apt-get", ["update", "-qq"], { stdio: "inherit", env });
  spawnSync(
    "apt-get",
    ["install", "-y", "-qq", `postgresql-${major}-auto-failover`, "pg-auto-failover-cli"],
    {
      stdio: ["ignore", "ignore", "inherit"],
      env,
    },
  );
  return autoctlBinary();
}

async function main() {
  const cases = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  const runScaled = cases.length === 0 || cases.includes("scaled");
  const runFailover = cases.length === 0 || cases.includes("failover");
  const pgbouncer = pgbouncerBinary();
  const postgresBin = postgresBinaries();
  if (!pgbouncer || !postgresBin) {
    console.log(
      `test:topology skipped: ${!pgbouncer ? "pgbouncer" : "the PostgreSQL server binaries (initdb, pg_basebackup)"} ` +
        "not installed (apt-get install -y pgbouncer postgresql)",
    );
    return;
  }
  const started = Date.now();
  try {
    if (runScaled) await scaledCase();
    if (runFailover) {
      if (!ensureAutoFailover(postgresBin))
        throw new Error(
          "pg_auto_failover is not installed (apt-get install -y postgresql-15-auto-failover pg-auto-failover-cli)",
        );
      await failoverCase({ stage, start, stop, waitForOk });
    }
  } finally {
    await Promise.all(children.map((child) => stop(child)));
    console.log("\n=== topology: stage times");
    for (const t of timings)
      console.log(`  ${t.ok ? "ok    " : "FAILED"} ${t.seconds.toFixed(1).padStart(7)} s  ${t.stage}`);
    console.log(`  total ${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}

/** A pooler, a streaming replica, two web processes and two workers, browser specs and load. */
async function scaledCase() {
  // the browser npm test found or installed (scripts/test-browser.ts), for the browser specs
  const browser = ensureBrowser();
  if (!browser) throw new Error("no browser for the browser specs (see above)");
  const [web1, web2, worker1, worker2] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  // the e2e helpers find the app's database as `<DATABASE_URL's db>_e2e_<port>` (tests/e2e/helpers/app-db.ts)
  const appDatabase = `postgres_e2e_${web1}`;
  const metricsToken = `topology-${newApiKey()}`;
  let pair: ReplicaPair | undefined;
  let bouncer: RunningPgBouncer | undefined;
  let fakes: RunningFakes | undefined;
  try {
    pair = await stage("primary, streaming replica and PgBouncer (transaction mode)", async () => {
      const p = await startReplicaPair({
        applyDelayMs: Number(process.env.TOPOLOGY_APPLY_DELAY_MS ?? 0),
        database: appDatabase,
      });
      bouncer = await startPgBouncer(p.primary.url(appDatabase), { poolSize: 20 });
      return p;
    });
    const primaryBase = pair.primary.url("postgres");
    const direct = pair.primary.url(appDatabase);
    const replicaUrl = pair.replica.url(appDatabase);
    const pooled = new URL(bouncer!.url);
    pooled.searchParams.set("pgbouncer", "true");

    const all = process.env.TOPOLOGY_INTEGRATION === "all";
    await stage(
      `integration tests on Postgres through the pooler (${all ? "all files" : `${INTEGRATION_SUBSET.length} files`})`,
      () =>
        run(
          "npx",
          ["vitest", "run", "--project", "integration-postgres", ...(all ? [] : INTEGRATION_SUBSET)],
          {
            ...process.env,
            DATABASE_URL: primaryBase,
            TEST_POOLER: "1",
          },
        ),
    );

    await stage(existsSync(".next/BUILD_ID") ? "next build (reused)" : "next build", async () => {
      if (!existsSync(".next/BUILD_ID"))
        await run(path.join("node_modules", ".bin", "next"), ["build"], {
          ...process.env,
          NODE_ENV: "production",
        });
    });

    process.env.PORT = String(web1); // the fakes write their addresses for the specs under this port
    fakes = await startFakes();
    // web processes and workers share what a deployment shares: the secrets and the databases
    const common: NodeJS.ProcessEnv = {
      ...process.env,
      ...fakes.env,
      DATABASE_URL: pooled.toString(),
      DATABASE_DIRECT_URL: direct,
      DATABASE_READ_URL: replicaUrl,
      AUTH_SECRET: newApiKey(),
      APP_URL: `http://localhost:${web1}`,
      SEED_DEMO: "0",
      SKIP_BUILD: "1",
      JOBS_WORKER: "0",
      METRICS_TOKEN: metricsToken,
      WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS: "1",
      IMPORT_JOB_THRESHOLD_BYTES: "65536",
      JOBS_POLL_SECONDS: "0.5",
      JOBS_SUPERVISE_SECONDS: "2",
      NODE_ENV: "production",
    };
    delete common.CI; // not the CI flag of npm test: these are ordinary processes
    const webs = [web1, web2];
    const workerPorts = [worker1, worker2];
    const workers: ChildProcess[] = [];
    await stage("two web processes (npm start) and two workers (npm run worker)", async () => {
      for (const port of webs)
        start(`web:${port}`, "npm", ["start"], {
          ...common,
          PORT: String(port),
          DATA_DIR: `.data/topology-${port}`,
        });
      for (const port of workerPorts)
        workers.push(
          start(`worker:${port}`, "npm", ["run", "worker"], { ...common, WORKER_PORT: String(port) }),
        );
      await Promise.all([
        ...webs.map((port) => waitForOk(`http://localhost:${port}/api/ready`, `web ${port}`)),
        ...workerPorts.map((port) => waitForOk(`http://127.0.0.1:${port}/ready`, `worker ${port}`)),
      ]);
    });

    // an API key for the load loop's public events reads (read on the replica)
    const apiKey = newApiKey();
    const admin = connect(direct, { max: 1 });
    const [ws] = await admin`insert into public.workspaces (name) values ('Topology load') returning id`;
    await admin`insert into public.api_keys (workspace_id, name, key_hash) values (${ws.id}, 'load', ${hashApiKey(apiKey)})`;
    await admin`insert into public.events (workspace_id, name, is_published, start_time, end_time)
                values (${ws.id}, 'Load test event', true, now() + interval '1 day', now() + interval '2 days')`;
    await admin.end();

    const load = { sent: 0, failed: [] as string[], byPort: {} as Record<number, number>, running: true };
    const loop = (async () => {
      const paths = [`/api/v1/public/events?key=${apiKey}`, "/api/ready", "/sign-in"];
      while (load.running) {
        const port = webs[load.sent % 2]; // half to each web process
        const target = paths[Math.floor(load.sent / 2) % paths.length];
        load.sent++;
        load.byPort[port] = (load.byPort[port] ?? 0) + 1;
        try {
          const res = await fetch(`http://localhost:${port}${target}`);
          await res.arrayBuffer();
          if (!res.ok) load.failed.push(`${port}${target.replace(apiKey, "…")}: ${res.status}`);
        } catch (error) {
          load.failed.push(`${port}${target.replace(apiKey, "…")}: ${(error as Error).message}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();

    await stage(`browser specs against web ${web1}, load on both, a worker SIGKILLed midway`, async () => {
      const kill = setTimeout(() => {
        console.log(`[topology] SIGKILL to worker ${worker1} (the other carries the jobs on)`);
        try {
          process.kill(-workers[0].pid!, "SIGKILL");
        } catch {
          /* already gone */
        }
      }, 20_000);
      try {
        await run("npx", ["playwright", "test", ...BROWSER_SPECS], {
          ...process.env,
          E2E_PORT: String(web1),
          PORT: String(web1), // the fakes' address file (tests/fakes/index.ts)
          E2E_EXTERNAL_SERVER: "1",
          CHROMIUM_PATH: browser,
          DATABASE_URL: primaryBase,
          // the specs sign their sessions as the web processes do (tests/e2e/helpers/session-key.ts)
          AUTH_SECRET: common.AUTH_SECRET,
        });
      } finally {
        clearTimeout(kill);
        load.running = false;
        await loop;
      }
      console.log(
        `[topology] load: ${load.sent} requests (${webs.map((p) => `${load.byPort[p] ?? 0} to ${p}`).join(", ")}), ${load.failed.length} failed`,
      );
      if (load.failed.length) throw new Error(`load requests failed: ${load.failed.slice(0, 10).join("; ")}`);
    });

    await stage("reads by target (crm_db_reads_total)", async () => {
      let replica = 0;
      let total = 0;
      for (const port of webs) {
        const counts = await readsOf(`http://localhost:${port}`, metricsToken);
        console.log(`[topology] web ${port}: ${JSON.stringify(counts)}`);
        for (const [key, n] of Object.entries(counts)) {
          total += n;
          if (key.startsWith("replica/")) replica += n;
        }
      }
      console.log(`[topology] replica served ${replica} of ${total} reads that tolerate lag`);
      if (replica === 0) throw new Error("the replica served no reads");
    });
  } finally {
    await Promise.all(children.map((child) => stop(child)));
    await fakes?.stop();
    await bouncer?.stop();
    await pair?.stop();
    for (const port of [web1, web2]) await rm(`.data/topology-${port}`, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
