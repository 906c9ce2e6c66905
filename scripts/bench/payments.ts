/**
 * Benchmark (spec 4.4): checkout ingestion. Signed checkout.session.completed events with three
 * products each are posted at 16 concurrent connections to `next start` on the real Postgres,
 * with line items served by the fake Stripe server; the health route is measured in the same
 * run for the ratio. Standalone: DATABASE_URL=postgres://… npx tsx scripts/bench/payments.ts
 * (BENCH_DURATION seconds per run, default 10; BENCH_BUILD=1 forces `next build`).
 */
import path from "node:path";
import autocannon from "autocannon";
import { connect } from "../../lib/db/client";
import { startStripeFake, type StripeFake } from "../../tests/fakes/stripe";
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

const PORT = 3261;
const CONNECTIONS = 16;
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ACCOUNT = "acct_benchPayments1";
/** The shop's catalogue: a shirt and a mug in every order, and one of ITEMS others. */
const ITEMS = 50;
const BENCH_DB = "crm_bench_payments";

const HISTORY_CONTACTS = 20_000;

/**
 * A shop with history: the workspace already holds 20,000 contacts, its catalogue and a
 * purchase by each contact, and the statistics are current, as autovacuum keeps them in
 * production. On a new, never analysed database the planner sees empty tables, and the plans
 * each pooled connection caches for its prepared statements at its first requests stay in use
 * after the tables have grown.
 */
export async function seedWorkspace(url: string): Promise<void> {
  const sql = connect(url, { max: 1 });
  const [user] = await sql`insert into auth.users (email) values ('bench-owner@example.test') returning id`;
  await sql`insert into user_profiles (id, email, timezone) values (${user.id}, 'bench-owner@example.test', 'UTC')`;
  const [ws] = await sql`insert into workspaces (name) values ('Bench shop') returning id`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
  await sql`insert into payproc_connections (workspace_id, payproc_account_id, auto_subscribe_purchasers)
            values (${ws.id}, ${ACCOUNT}, true)`;
  await sql`insert into contacts (workspace_id, email, first_name, last_name, source)
            select ${ws.id}, 'customer' || i || '@example.test', 'Customer', 'Number' || i, 'import'
            from generate_series(1, ${HISTORY_CONTACTS}) as i`;
  // without them, the generic plan of the checkout's duplicate check (made on an empty
  // transactions table) read the whole table at every event, slower at each run (docs/performance.md)
  await sql`insert into products (workspace_id, payproc_product_id, name)
            select ${ws.id}::uuid, v.pid, v.name from (values ('prod_benchShirt', 'Shirt'), ('prod_benchMug', 'Mug')) v(pid, name)
            union all select ${ws.id}::uuid, 'prod_benchItem' || i, 'Item ' || i from generate_series(0, ${ITEMS - 1}) i`;
  await sql`insert into transactions (workspace_id, contact_id, product_id, amount_paid, currency,
              external_payproc_transaction_id, payproc_payment_intent_id, status, amount_refunded, transaction_date)
            select ${ws.id}, c.id, p.id, 25, 'usd', 'cs_test_history' || c.n || '_' || p.payproc_product_id,
                   'pi_history' || c.n, 'succeeded', 0, now() - (c.n % 365) * interval '1 day'
            from (select id, row_number() over (order by id) as n from contacts) c
            join (select id, payproc_product_id, row_number() over (order by payproc_product_id) - 1 as k from products) p
              on p.k = c.n % ${ITEMS + 2}`;
  await sql`analyze`;
  await sql.end();
}

/** Signed events made ahead of the run, so the load generator only sends bytes. */
export function makeEvents(fake: StripeFake, count: number, buyer = ""): { body: string; header: string }[] {
  return Array.from({ length: count }, (_, i) => {
    const { session } = fake.addCheckout({
      account: ACCOUNT,
      email: `buyer${buyer || i % 2000}@example.test`,
      name: `Buyer Number${buyer || i % 2000}`,
      items: [
        { productId: "prod_benchShirt", name: "Shirt", amountTotal: 2500 },
        { productId: "prod_benchMug", name: "Mug", amountTotal: 1200 },
        { productId: `prod_benchItem${i % ITEMS}`, name: `Item ${i % ITEMS}`, amountTotal: 999 },
      ],
    });
    const signed = fake.checkoutEvent(session);
    return { body: signed.payload, header: signed.header };
  });
}

/**
 * An autocannon request posting the next prepared event to `path` at each call, signed, or
 * with `signature` in its place; `sent` counts the events posted.
 */
export function eventPoster(events: { body: string; header: string }[]) {
  let next = 0;
  const post = (path: string, signature?: string): autocannon.Request => ({
    method: "POST",
    path,
    setupRequest: (req) => {
      const event = events[next++ % events.length];
      return {
        ...req,
        body: event.body,
        headers: { "content-type": "application/json", "stripe-signature": signature ?? event.header },
      };
    },
  });
  return Object.defineProperty(post, "sent", { get: () => next }) as typeof post & { readonly sent: number };
}

/** Runs a load and measures the CPU (seconds) it cost the app, the database and this process. */
async function measured(appPid: number, fn: () => Promise<autocannon.Result>) {
  const [app0, db0, self0] = [processTreeCpuMs(appPid), databaseCpuMs(BENCH_DB), process.cpuUsage()];
  const result = await fn();
  const self = process.cpuUsage(self0);
  const cpu = {
    app: (processTreeCpuMs(appPid) - app0) / 1000,
    db: (databaseCpuMs(BENCH_DB) - db0) / 1000,
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
  ensureBuild();
  const db = await freshDatabase(base, BENCH_DB);
  const fake = await startStripeFake();
  let app: Awaited<ReturnType<typeof startNextServer>> | undefined;
  try {
    await seedWorkspace(db.url);
    app = await startNextServer(PORT, { ...fake.env, DATABASE_URL: db.url });
    const url = `http://127.0.0.1:${PORT}`;
    const events = makeEvents(fake, 400 + DURATION * 1500);
    const post = eventPoster(events);
    const checkout = (duration: number) =>
      load({ url, connections: CONNECTIONS, duration, requests: [post("/api/webhooks/payproc")] });
    await checkout(2); // warm up: compiled routes, pools, the first products
    await load({ url: `${url}/api/health`, connections: CONNECTIONS, duration: 2 });
    await analyzeAsAutovacuumWould(db.url);
    const appPid = app.pid!;
    const health = await measured(appPid, () =>
      load({ url: `${url}/api/health`, connections: CONNECTIONS, duration: DURATION }),
    );
    const before = post.sent;
    const ingest = await measured(appPid, () => checkout(DURATION));
    // the framework's part: the same POSTs with a wrong signature, refused before any query
    const refused = await measured(appPid, () =>
      load({
        url,
        connections: CONNECTIONS,
        duration: DURATION,
        requests: [post("/api/webhooks/payproc", "t=1,v1=00")],
      }),
    );
    const sent = post.sent - before;
    const result = ingest.result;

    const sql = connect(db.url, { max: 1 });
    const [{ rows, sessions }] = await sql`
      select count(*)::int as rows, count(distinct split_part(external_payproc_transaction_id, '_prod_', 1))::int as sessions
      from transactions where external_payproc_transaction_id not like 'cs_test_history%'`;
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
      line(
        "  …wrong signature: 400, no query",
        refused.result,
        (refused.result.requests.average / health.result.requests.average).toFixed(3),
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
    console.log(`CPU per refused POST:   ${per(refused, refused.result.requests.total)}`);
    const serverMs = ((ingest.cpu.app + ingest.cpu.db) / result.requests.total) * 1000;
    console.log(`events/s that two idle cores could serve (app + db CPU): ${(2000 / serverMs).toFixed(0)}`);
    verdict(
      "checkout webhook (3 products) / health",
      result.requests.average / health.result.requests.average,
      {
        atLeast: 0.3,
      },
    );

    // the floor: one checkout's SQL without the app (the capture copies the database, which
    // needs it without connections, so the server stops first)
    await stopNextServer(app);
    const statements = await captureRequestSql({
      baseUrl: base,
      database: BENCH_DB,
      port: PORT,
      env: { ...fake.env },
      send: async (origin, attempt) => {
        const [event] = makeEvents(fake, 1, String(attempt)); // a returning buyer, as most of the load
        const response = await fetch(`${origin}/api/webhooks/payproc`, {
          method: "POST",
          headers: { "content-type": "application/json", "stripe-signature": event.header },
          body: event.body,
        });
        if (!response.ok) throw new Error(`the captured checkout answered ${response.status}`);
      },
    });
    printSqlFloor(
      "checkout webhook (3 products)",
      await replaySqlFloor(db.url, BENCH_DB, statements),
      health.result.requests.average,
      0.3,
      { label: "the same POST refused for its signature", rate: refused.result.requests.average },
    );
  } finally {
    if (app) await stopNextServer(app);
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
