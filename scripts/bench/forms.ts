/**
 * Benchmark of POST /api/forms/{form_id} against `next start` on the real Postgres (issue 4):
 * - new contacts submitted with the form key (path B), 32 connections;
 * - existing contacts without the key (path A: staging plus a verification email to the
 *   dev outbox), 32 connections;
 * - the no-database health route of the same server, in the same run, for the ratio.
 * Every request has a new X-Forwarded-For address, so the per-IP limit of spec 4.2.1 is
 * exercised (one limiter row per request) but never reached.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/crm_forms npx tsx scripts/bench/forms.ts
 *
 * It creates and drops its own database (crm_bench_forms) beside DATABASE_URL's, reuses
 * `.next` when it is newer than the sources (else runs `next build`), and listens on 3251.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { connect } from "../../lib/db/client";
import { migrate } from "../../lib/db/migrate";
import { generateFormKey, hashFormKey } from "../../lib/forms/api-key";

const PORT = Number(process.env.BENCH_FORMS_PORT ?? 3251);
const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const EXISTING = 20_000;
const root = process.cwd();
const BENCH_DB = "crm_bench_forms";

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(full));
    else newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

function ensureBuild(): void {
  const buildId = path.join(root, ".next", "BUILD_ID");
  let built = 0;
  try {
    built = statSync(buildId).mtimeMs;
  } catch {}
  const sources = Math.max(...["app", "lib", "components"].map((d) => newestSource(path.join(root, d))));
  if (built > sources) return;
  console.log("building the app (next build)…");
  const result = spawnSync(path.join(root, "node_modules", ".bin", "next"), ["build"], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  if (result.status !== 0) throw new Error("next build failed");
}

async function createDatabase(base: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = BENCH_DB;
  const admin = connect(base, { max: 1 });
  await admin.unsafe(`drop database if exists "${name}" with (force)`);
  await admin.unsafe(`create database "${name}"`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
      await admin.end();
    },
  };
}

async function seed(url: string) {
  const sql = connect(url, { max: 1 });
  await migrate(sql);
  const [ws] = await sql`insert into public.workspaces (name) values ('Bench') returning id`;
  const key = generateFormKey();
  const [keyed] = await sql`
    insert into public.forms (workspace_id, name, api_key) values (${ws.id}, 'Keyed', ${hashFormKey(key)}) returning id`;
  const [verifying] = await sql`
    insert into public.forms (workspace_id, name) values (${ws.id}, 'Double opt-in') returning id`;
  await sql`
    insert into public.contacts (workspace_id, email, first_name)
    select ${ws.id}, 'existing' || i || '@bench.test', 'Existing'
    from generate_series(1, ${EXISTING}) as i`;
  await sql`analyze`;
  await sql.end();
  return { keyedFormId: keyed.id as string, verifyingFormId: verifying.id as string, key };
}

function startServer(url: string): ChildProcess {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: "production",
    DATABASE_URL: url,
    DATABASE_EMBEDDED: "0",
    PORT: String(PORT),
    APP_URL: `http://localhost:${PORT}`,
  };
  delete env.RESEND_API_KEY;
  return spawn(path.join(root, "node_modules", ".bin", "next"), ["start", "-p", String(PORT)], {
    env,
    stdio: ["ignore", "ignore", "inherit"],
  });
}

async function waitForHealth(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/api/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error("next start did not answer /api/health within 60 s");
}

/** CPU milliseconds used so far by a process and its children that are still alive (Linux). */
function cpuMs(pid: number): number {
  try {
    const ids = [
      pid,
      ...readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8")
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .map(Number),
    ];
    const ticks = ids.reduce((sum, id) => {
      const fields = readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1].split(" ");
      return sum + Number(fields[11]) + Number(fields[12]); // utime + stime
    }, 0);
    return (ticks * 1000) / 100; // USER_HZ
  } catch {
    return NaN;
  }
}

/** CPU milliseconds of the Postgres backends serving the bench database (by process title). */
function dbCpuMs(database: string): number {
  let ticks = 0;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/cmdline`, "utf8").includes(` ${database} `)) continue;
      const fields = readFileSync(`/proc/${entry}/stat`, "utf8").split(") ")[1].split(" ");
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {}
  }
  return (ticks * 1000) / 100;
}

let counter = 0;
const nextIp = () => {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
};

function submission(formId: string, body: () => object, headers: Record<string, string> = {}) {
  return {
    path: `/api/forms/${formId}`,
    method: "POST" as const,
    setupRequest: (req: autocannon.Request) => ({
      ...req,
      headers: { ...headers, "content-type": "application/json", "x-forwarded-for": nextIp() },
      body: JSON.stringify(body()),
    }),
  };
}

async function load(title: string, options: Partial<autocannon.Options>, duration = DURATION, urlPath = "") {
  return autocannon({
    title,
    url: `http://127.0.0.1:${PORT}${urlPath}`,
    connections: CONNECTIONS,
    duration,
    ...options,
  });
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base)
    throw new Error("DATABASE_URL must point at a Postgres server (the bench creates its own database)");
  ensureBuild();
  const db = await createDatabase(base);
  const { keyedFormId, verifyingFormId, key } = await seed(db.url);
  const server = startServer(db.url);
  try {
    await waitForHealth();
    let fresh = 0;
    let existing = 0;
    const newContact = submission(
      keyedFormId,
      () => ({ email: `lead${++fresh}@bench.test`, first_name: "Lead", is_subscribed: true }),
      { "x-api-key": key },
    );
    const existingContact = submission(verifyingFormId, () => ({
      email: `existing${(existing++ % EXISTING) + 1}@bench.test`,
      first_name: "Changed",
    }));
    // warm-up: JIT (Next.js needs a while), route compilation, pool connections
    await load("warm-up", {}, 5, "/api/health");
    await load("warm-up", { requests: [newContact] }, 5);
    await load("warm-up", { requests: [existingContact] }, 5);

    const cpu: Record<string, number> = {};
    const dbCpu: Record<string, number> = {};
    const measured = async (run: () => Promise<autocannon.Result>) => {
      const [before, dbBefore] = [cpuMs(server.pid!), dbCpuMs(BENCH_DB)];
      const result = await run();
      const total = result.requests.total || 1;
      cpu[result.title!] = (cpuMs(server.pid!) - before) / total;
      dbCpu[result.title!] = (dbCpuMs(BENCH_DB) - dbBefore) / total;
      return result;
    };
    // health before and after the form runs; the ratio uses their mean (the machine drifts)
    const healthBefore = await measured(() => load("health, before", {}, DURATION, "/api/health"));
    const created = await measured(() => load("new contact, key", { requests: [newContact] }));
    const staged = await measured(() =>
      load("existing contact, staged + email", { requests: [existingContact] }),
    );
    const healthAfter = await measured(() => load("health, after", {}, DURATION, "/api/health"));
    const healthRate = (healthBefore.requests.average + healthAfter.requests.average) / 2;

    const check = connect(db.url, { max: 1 });
    const [counts] = await check`
      select (select count(*)::int from public.form_submissions) as submissions,
             (select count(*)::int from public.pending_form_submissions) as pending,
             (select count(*)::int from public.email_sends where status = 'outbox') as outbox`;
    await check.end();

    const row = (r: autocannon.Result) => ({
      scenario: r.title,
      "req/s": Math.round(r.requests.average),
      "p50 ms": r.latency.p50,
      "p99 ms": r.latency.p99,
      ratio: (r.requests.average / healthRate).toFixed(2),
      errors: r.errors + r.timeouts + r.non2xx,
      "server cpu ms/req": cpu[r.title!]?.toFixed(2),
      "db cpu ms/req": dbCpu[r.title!]?.toFixed(2),
    });
    console.log(
      `\nforms: ${CONNECTIONS} connections, ${DURATION} s each, next start on ${base.replace(/\/[^/]*$/, "/…")}`,
    );
    console.table([row(healthBefore), row(created), row(staged), row(healthAfter)]);
    console.log(
      `stored: ${counts.submissions} submissions, ${counts.pending} staged, ${counts.outbox} outbox emails` +
        ` (targets: new contact >= 1000 req/s and ratio >= 0.4; existing >= 500 req/s)`,
    );
    console.log(
      "cpu ms/req: CPU time per request of the next-server process and of the Postgres backends;" +
        " unlike req/s it hardly depends on what else the machine runs.",
    );
  } finally {
    server.kill("SIGTERM");
    await new Promise((r) => server.once("exit", r));
    await db.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
