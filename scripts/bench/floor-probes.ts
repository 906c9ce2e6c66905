/**
 * The floors under the form's and the checkout's goals (docs/performance.md), measured through `next start`
 * beside the real routes and the health route, in the same rounds. Each probe
 * (./floor-probes/*.route.ts) does the least its request can do, in steps: the parts the spec
 * requires before any rule runs, then the writes as one statement with none of the rules. When
 * the probe's ratio is under the goal, no code of ours can reach the goal on this machine.
 *
 * The probes are never part of the app: for this run they are copied under
 * app/api/bench-floor/ (git-ignored), answer only with BENCH_FLOOR_PROBES=1, and are removed
 * afterwards with the build that contains them.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- floor-probes
 */
import { copyFile, mkdir, rm } from "node:fs/promises";
import path from "node:path";
import autocannon from "autocannon";
import { connect } from "../../lib/db/client";
import { startStripeFake } from "../../tests/fakes/stripe";
import { seed as seedForms, submission } from "./forms";
import { eventPoster, makeEvents, seedWorkspace as seedShop } from "./payments";
import { analyzeAsAutovacuumWould, freshDatabase, table } from "./lib/database";
import {
  databaseCpuMs,
  ensureBuild,
  processTreeCpuMs,
  startNextServer,
  stopNextServer,
} from "./lib/next-server";

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PORT = Number(process.env.BENCH_FLOOR_PROBES_PORT ?? 3274);
const root = process.cwd();
const PROBES = [
  { source: "checkout.route.ts", target: "app/api/bench-floor/checkout/route.ts" },
  { source: "form.route.ts", target: "app/api/bench-floor/form/[formId]/route.ts" },
];

/** Builds the app with the probes in it, runs `fn`, then removes the probes and that build. */
async function withProbes(fn: () => Promise<void>): Promise<void> {
  try {
    for (const probe of PROBES) {
      await mkdir(path.dirname(path.join(root, probe.target)), { recursive: true });
      await copyFile(
        path.join(root, "scripts/bench/floor-probes", probe.source),
        path.join(root, probe.target),
      );
    }
    ensureBuild({ force: true });
    await fn();
  } finally {
    await rm(path.join(root, "app/api/bench-floor"), { recursive: true, force: true });
    await rm(path.join(root, ".next"), { recursive: true, force: true }); // no later start serves the probes
  }
}

/** The probe's last step: the writes, whose ratio is the floor. */
const WRITES = "  + the writes, one statement";

/** Loads of `connections` on the server: `request(path)` posted to a path, and the health route. */
function loaders(connections: number, request: (urlPath: string) => autocannon.Request) {
  const url = `http://127.0.0.1:${PORT}`;
  return {
    post: (urlPath: string, duration = DURATION) =>
      autocannon({ url, connections, duration, requests: [request(urlPath)] }),
    health: (duration = DURATION) => autocannon({ url: `${url}/api/health`, connections, duration }),
  };
}

interface Variant {
  name: string;
  load: () => Promise<autocannon.Result>;
  /** run after the variant's load, outside its measurement */
  after?: () => Promise<void>;
}

/**
 * Rounds of the health route and each variant, one after the other: each variant's rate
 * against the health route of its round, and the CPU per request of the server and the database.
 */
async function rounds(
  pid: number,
  database: string,
  health: () => Promise<autocannon.Result>,
  variants: Variant[],
) {
  const rows: (string | number)[][] = [];
  const ratios = new Map<string, number[]>();
  for (let round = 1; round <= ROUNDS; round++) {
    let healthRate = 0;
    for (const variant of [{ name: "health", load: health } as Variant, ...variants]) {
      const [app0, db0] = [processTreeCpuMs(pid), databaseCpuMs(database)];
      const result = await variant.load();
      const n = Math.max(1, result.requests.total);
      const [app, db] = [(processTreeCpuMs(pid) - app0) / n, (databaseCpuMs(database) - db0) / n];
      await variant.after?.();
      if (variant.name === "health") healthRate = result.requests.average;
      const ratio = result.requests.average / healthRate;
      ratios.set(variant.name, [...(ratios.get(variant.name) ?? []), ratio]);
      rows.push([
        round,
        variant.name,
        Math.round(result.requests.average),
        ratio.toFixed(3),
        app.toFixed(2),
        Math.max(0, db).toFixed(2),
        result.errors + result.timeouts + result.non2xx,
      ]);
    }
  }
  table(["round", "route", "req/s", "ratio", "server cpu ms/req", "db cpu ms/req", "errors"], rows);
  return ratios;
}

function floorVerdict(label: string, ratios: number[], goal: number): void {
  const best = Math.max(...ratios);
  console.log(
    `floor: ${label}: at most ${best.toFixed(2)}x over ${ratios.length} rounds (goal >= ${goal}x) -> ` +
      (best < goal ? "the goal is out of reach on this machine" : "the floor allows the goal"),
  );
}

async function checkoutFloor(base: string): Promise<void> {
  const db = await freshDatabase(base, "crm_bench_floor_checkout");
  const fake = await startStripeFake();
  const server = await startNextServer(PORT, { ...fake.env, DATABASE_URL: db.url, BENCH_FLOOR_PROBES: "1" });
  const sql = connect(db.url, { max: 1 });
  try {
    await seedShop(db.url);
    const events = makeEvents(fake, 4000 + ROUNDS * 5 * DURATION * 500);
    const { post, health } = loaders(16, eventPoster(events));
    // the partial steps leave their inbox rows pending: set aside between loads, as processing would
    const setAside = async () => {
      await sql`update webhook_inbox set status = 'ignored' where status = 'pending'`;
      await sql`vacuum webhook_inbox`;
    };
    await post("/api/webhooks/payproc", 2);
    await post("/api/bench-floor/checkout", 2);
    await health(2);
    await analyzeAsAutovacuumWould(db.url);
    console.log(`\ncheckout webhook (3 products), 16 connections, ${DURATION} s per load`);
    const ratios = await rounds(server.pid!, "crm_bench_floor_checkout", health, [
      { name: "checkout route", load: () => post("/api/webhooks/payproc") },
      {
        name: "floor: signature + inbox row",
        load: () => post("/api/bench-floor/checkout?part=keep"),
        after: setAside,
      },
      {
        name: "  + line items from Stripe",
        load: () => post("/api/bench-floor/checkout?part=stripe"),
        after: setAside,
      },
      { name: WRITES, load: () => post("/api/bench-floor/checkout") },
    ]);
    floorVerdict("checkout, the writes in one statement and no rule", ratios.get(WRITES)!, 0.3);
  } finally {
    await sql.end();
    await stopNextServer(server);
    await fake.stop();
    await db.drop();
  }
}

async function formFloor(base: string): Promise<void> {
  const db = await freshDatabase(base, "crm_bench_floor_form");
  const { keyedFormId, key } = await seedForms(db.url);
  const server = await startNextServer(PORT, {
    DATABASE_URL: db.url,
    RESEND_API_KEY: undefined,
    BENCH_FLOOR_PROBES: "1",
  });
  try {
    let fresh = 0;
    const lead = () => ({ email: `lead${++fresh}@bench.test`, first_name: "Lead", is_subscribed: true });
    const { post, health } = loaders(32, (urlPath) => ({
      ...submission(keyedFormId, lead, { "x-api-key": key }),
      path: urlPath,
    }));
    await health(5);
    await post(`/api/forms/${keyedFormId}`, 5);
    await post(`/api/bench-floor/form/${keyedFormId}`, 5);
    await analyzeAsAutovacuumWould(db.url);
    console.log(`\nnew-contact form submission, 32 connections, ${DURATION} s per load`);
    const ratios = await rounds(server.pid!, "crm_bench_floor_form", health, [
      { name: "form route", load: () => post(`/api/forms/${keyedFormId}`) },
      {
        name: "floor: body + form + limiter",
        load: () => post(`/api/bench-floor/form/${keyedFormId}?part=read`),
      },
      { name: WRITES, load: () => post(`/api/bench-floor/form/${keyedFormId}`) },
    ]);
    floorVerdict("new-contact form, the writes in one statement and no rule", ratios.get(WRITES)!, 0.5);
  } finally {
    await stopNextServer(server);
    await db.drop();
  }
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("DATABASE_URL (a real Postgres server) is required for the floor probes");
  await withProbes(async () => {
    await checkoutFloor(base);
    await formFloor(base);
  });
}
