/**
 * Benchmark (issue 6): checkout ingestion. Signed checkout.session.completed events with three
 * products each are posted at 16 concurrent connections to `next start` on the real Postgres,
 * with line items served by the fake Stripe server; the health route is measured in the same
 * run for the ratio. Standalone: DATABASE_URL=postgres://… npx tsx scripts/bench/payments.ts
 * (BENCH_DURATION seconds per run, default 10; BENCH_BUILD=1 forces `next build`).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import autocannon from "autocannon";
import { connect } from "../../lib/db/client";
import { migrate } from "../../lib/db/migrate";
import { startStripeFake, type StripeFake } from "../../tests/fakes/stripe";

const PORT = 3261;
const CONNECTIONS = 16;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ACCOUNT = "acct_benchPayments1";
const root = process.cwd();

async function newestMtime(dir: string): Promise<number> {
  let newest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? await newestMtime(full) : (await stat(full)).mtimeMs);
  }
  return newest;
}

/** Reuses .next when it is newer than every source file; builds otherwise. */
async function ensureBuild(): Promise<void> {
  const built = await stat(path.join(root, ".next", "BUILD_ID")).then(
    (s) => s.mtimeMs,
    () => 0,
  );
  const sources = Math.max(
    ...(await Promise.all(["app", "lib", "components"].map((d) => newestMtime(path.join(root, d))))),
  );
  if (process.env.BENCH_BUILD !== "1" && built > sources) return;
  console.log("building the app (next build)…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], { stdio: "inherit" });
  if (result.status !== 0) throw new Error("next build failed");
}

async function freshDatabase(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = "crm_bench_payments";
  const admin = connect(base, { max: 1 });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  const sql = connect(u.toString(), { max: 1 });
  await migrate(sql);
  await sql.end();
  return {
    url: u.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

async function seedWorkspace(url: string): Promise<void> {
  const sql = connect(url, { max: 1 });
  const [user] = await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
  await sql`insert into user_profiles (id, email, timezone) values (${user.id}, 'bench-owner@example.test', 'UTC')`;
  const [ws] = await sql`insert into workspaces (name) values ('Bench shop') returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  await sql`insert into payproc_connections (workspace_id, payproc_account_id, auto_subscribe_purchasers)
            values (${ws.id}, ${ACCOUNT}, true)`;
  await sql.end();
}

async function startApp(env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(PORT)], {
    env: { ...process.env, ...env, NODE_ENV: "production", PORT: String(PORT) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(`http://127.0.0.1:${PORT}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    await new Promise((r) => setTimeout(r, 500));
  }
  child.kill("SIGTERM");
  throw new Error("next start did not answer /api/health");
}

/** Signed events made ahead of the run, so the load generator only sends bytes. */
function makeEvents(fake: StripeFake, count: number): { body: string; header: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const { session } = fake.addCheckout({
      account: ACCOUNT,
      email: `buyer${i % 2000}@example.test`,
      name: `Buyer Number${i % 2000}`,
      items: [
        { productId: "prod_benchShirt", name: "Shirt", amountTotal: 2500 },
        { productId: "prod_benchMug", name: "Mug", amountTotal: 1200 },
        { productId: `prod_benchItem${i % 50}`, name: `Item ${i % 50}`, amountTotal: 999 },
      ],
    });
    const signed = fake.checkoutEvent(session);
    return { body: signed.payload, header: signed.header };
  });
}

/** CPU seconds used so far by processes (utime + stime from /proc, Linux), for cost per request. */
async function cpuSeconds(pids: number[]): Promise<number> {
  let ticks = 0;
  for (const pid of pids) {
    const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    ticks += Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
  }
  return ticks / 100;
}

/** The app's processes (next and its children) and the database backends serving it. */
async function serverPids(app: ChildProcess, dbUrl: string): Promise<{ app: number[]; db: number[] }> {
  const all = await readdir("/proc").then((names) => names.filter((n) => /^\d+$/.test(n)).map(Number));
  const tree = new Set([app.pid!]);
  for (let grew = true; grew;) {
    grew = false;
    for (const pid of all) {
      const stat = await readFile(`/proc/${pid}/stat`, "utf8").catch(() => "");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (tree.has(ppid) && !tree.has(pid)) {
        tree.add(pid);
        grew = true;
      }
    }
  }
  const sql = connect(dbUrl, { max: 1 });
  const rows =
    await sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  await sql.end();
  return { app: [...tree], db: rows.map((r) => r.pid as number) };
}

/** Runs a load and measures the CPU it cost the app, the database and this process. */
async function measured(pids: { app: number[]; db: number[] }, fn: () => Promise<autocannon.Result>) {
  const [app0, db0, self0] = [await cpuSeconds(pids.app), await cpuSeconds(pids.db), process.cpuUsage()];
  const result = await fn();
  const self = process.cpuUsage(self0);
  const cpu = {
    app: (await cpuSeconds(pids.app)) - app0,
    db: (await cpuSeconds(pids.db)) - db0,
    bench: (self.user + self.system) / 1e6,
  };
  return { result, cpu };
}

function load(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) =>
    autocannon(opts, (error, result) => (error ? reject(error) : resolve(result))),
  );
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL (a real Postgres server) is required for the payments benchmark");
  await ensureBuild();
  const db = await freshDatabase(base);
  const fake = await startStripeFake();
  let app: ChildProcess | undefined;
  try {
    await seedWorkspace(db.url);
    app = await startApp({ ...fake.env, DATABASE_URL: db.url });
    const url = `http://127.0.0.1:${PORT}`;
    const events = makeEvents(fake, 400 + DURATION * 1500);
    let next = 0;
    const checkout = (duration: number) =>
      load({
        url,
        connections: CONNECTIONS,
        duration,
        requests: [
          {
            method: "POST",
            path: "/api/webhooks/payproc",
            setupRequest: (req) => {
              const event = events[next++ % events.length];
              return {
                ...req,
                body: event.body,
                headers: { "content-type": "application/json", "stripe-signature": event.header },
              };
            },
          },
        ],
      });
    await checkout(2); // warm up: compiled routes, pools, the first products
    await load({ url: `${url}/api/health`, connections: CONNECTIONS, duration: 2 });
    const pids = await serverPids(app, db.url);
    const health = await measured(pids, () =>
      load({ url: `${url}/api/health`, connections: CONNECTIONS, duration: DURATION }),
    );
    const before = next;
    const ingest = await measured(pids, () => checkout(DURATION));
    const sent = next - before;
    const result = ingest.result;

    const sql = connect(db.url, { max: 1 });
    const [{ rows, sessions }] = await sql`
      select count(*)::int as rows, count(distinct split_part(external_payproc_transaction_id, '_prod_', 1))::int as sessions
      from transactions`;
    await sql.end();

    const line = (name: string, r: autocannon.Result, ratio: string) =>
      `${name.padEnd(34)} ${r.requests.average.toFixed(0).padStart(8)} ${String(r.latency.p50).padStart(7)} ${String(
        r.latency.p99,
      ).padStart(7)} ${ratio.padStart(7)} ${String(r.errors + r.non2xx).padStart(7)}`;
    console.log(`\npayments: checkout ingestion, ${CONNECTIONS} connections, ${DURATION} s per run`);
    console.log(
      `${"route".padEnd(34)} ${"req/s".padStart(8)} ${"p50 ms".padStart(7)} ${"p99 ms".padStart(7)} ${"ratio".padStart(7)} ${"errors".padStart(7)}`,
    );
    console.log(line("GET /api/health", health.result, "1.00"));
    console.log(
      line(
        "POST /api/webhooks/payproc (3 items)",
        result,
        (result.requests.average / health.result.requests.average).toFixed(3),
      ),
    );
    console.log(
      `events sent ${sent}; sessions stored ${sessions} (incl. warm-up); transactions rows ${rows}`,
    );
    // The machine may be shared: CPU per request is the figure that does not depend on the neighbours.
    const per = (m: typeof ingest, n: number) =>
      `app ${((m.cpu.app / n) * 1000).toFixed(2)} ms, db ${((m.cpu.db / n) * 1000).toFixed(2)} ms, ` +
      `load generator + fake ${((m.cpu.bench / n) * 1000).toFixed(2)} ms`;
    console.log(`CPU per health request: ${per(health, health.result.requests.total)}`);
    console.log(`CPU per event:          ${per(ingest, result.requests.total)}`);
    const serverMs = ((ingest.cpu.app + ingest.cpu.db) / result.requests.total) * 1000;
    console.log(`events/s that two idle cores could serve (app + db CPU): ${(2000 / serverMs).toFixed(0)}`);
    console.log(
      `target: >= 300 events/s → ${result.requests.average >= 300 ? "met" : "not met"} in this run`,
    );
  } finally {
    app?.kill("SIGTERM");
    await fake.stop();
    await db.drop();
  }
}

if (process.argv[1] && import.meta.url === `file://${path.resolve(process.argv[1])}`) {
  run().then(
    () => process.exit(0),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
