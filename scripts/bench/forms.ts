/**
 * Benchmark of POST /api/forms/{form_id} against `next start` on the real Postgres (spec 4.2):
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
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { connect } from "../../lib/db/client";
import { generateFormKey, hashFormKey } from "../../lib/forms/api-key";
import {
  databaseCpuMs,
  ensureBuild,
  processTreeCpuMs,
  startNextServer,
  stopNextServer,
} from "./lib/next-server";
import { analyzeAsAutovacuumWould, freshDatabase } from "./lib/database";
import { captureRequestSql, printSqlFloor, replaySqlFloor } from "./lib/sql-floor";
import { verdict } from "./lib/verdict";

const PORT = Number(process.env.BENCH_FORMS_PORT ?? 3251);
const CONNECTIONS = 32;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const EXISTING = 20_000;
const BENCH_DB = "crm_bench_forms";

export async function seed(url: string) {
  const sql = connect(url, { max: 1 });
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

let counter = 0;
const nextIp = () => {
  counter += 1;
  return `10.${(counter >> 16) & 255}.${(counter >> 8) & 255}.${counter & 255}`;
};

export function submission(formId: string, body: () => object, headers: Record<string, string> = {}) {
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
  const db = await freshDatabase(base, BENCH_DB);
  const { keyedFormId, verifyingFormId, key } = await seed(db.url);
  // the dev outbox, not Resend: the existing-contact path's email is stored, not sent
  const server = await startNextServer(PORT, {
    DATABASE_URL: db.url,
    APP_URL: `http://localhost:${PORT}`,
    RESEND_API_KEY: undefined,
  });
  try {
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
    await analyzeAsAutovacuumWould(db.url);

    const cpu: Record<string, number> = {};
    const dbCpu: Record<string, number> = {};
    const measured = async (run: () => Promise<autocannon.Result>) => {
      const [before, dbBefore] = [processTreeCpuMs(server.pid!), databaseCpuMs(BENCH_DB)];
      const result = await run();
      const total = result.requests.total || 1;
      cpu[result.title!] = (processTreeCpuMs(server.pid!) - before) / total;
      dbCpu[result.title!] = (databaseCpuMs(BENCH_DB) - dbBefore) / total;
      return result;
    };
    // health before and after the form runs; the ratio uses their mean (the machine drifts)
    const healthBefore = await measured(() => load("health, before", {}, DURATION, "/api/health"));
    const created = await measured(() => load("new contact, key", { requests: [newContact] }));
    const staged = await measured(() =>
      load("existing contact, staged + email", { requests: [existingContact] }),
    );
    // the framework's part: the same POST and body, refused before any query (a malformed form id)
    const refusedPost = submission(
      "not-a-form",
      () => ({ email: "lead@bench.test", first_name: "Lead", is_subscribed: true }),
      { "x-api-key": key },
    );
    const refused = await measured(() =>
      load("same POST, malformed form id: 404 before any query", { requests: [refusedPost] }),
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
    console.table([row(healthBefore), row(created), row(staged), row(refused), row(healthAfter)]);
    console.log(
      `stored: ${counts.submissions} submissions, ${counts.pending} staged, ${counts.outbox} outbox emails` +
        ` (goal: new contact >= 0.5x the health route of the same server)`,
    );
    verdict("new-contact form submission / health", created.requests.average / healthRate, { atLeast: 0.5 });
    console.log(
      "cpu ms/req: CPU time per request of the next-server process and of the Postgres backends;" +
        " unlike req/s it hardly depends on what else the machine runs.",
    );

    // the floor: the same submission's SQL without the app (the server must stop first: the
    // capture copies the database, which needs it without connections)
    await stopNextServer(server);
    const statements = await captureRequestSql({
      baseUrl: base,
      database: BENCH_DB,
      port: PORT,
      env: { APP_URL: `http://localhost:${PORT}`, RESEND_API_KEY: undefined },
      send: async (origin, attempt) => {
        const response = await fetch(`${origin}/api/forms/${keyedFormId}`, {
          method: "POST",
          headers: { "content-type": "application/json", "x-api-key": key, "x-forwarded-for": nextIp() },
          body: JSON.stringify({
            email: `floor${attempt}@bench.test`,
            first_name: "Floor",
            is_subscribed: true,
          }),
        });
        if (!response.ok) throw new Error(`the captured submission answered ${response.status}`);
      },
    });
    printSqlFloor(
      "new-contact form submission",
      await replaySqlFloor(db.url, BENCH_DB, statements),
      healthRate,
      0.5,
      { label: "the same POST refused before any query", rate: refused.requests.average },
    );
  } finally {
    await stopNextServer(server);
    await db.drop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  run().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
