/**
 * npm run bench -- portal: the contact's portal against the RSVP page (DESIGN.md section 9, "Portal and
 * languages"; docs/performance.md, "The portal"), on `next start` and the real Postgres:
 *
 * - render latency: the signed-in portal page (`/portal/{workspace_id}/me`: details, topics, registrations,
 *   purchases, memberships of one contact) and the sign-in page, against the RSVP page of the same
 *   workspace, requests one after another on two connections, alternating rounds; the goal is the portal's
 *   p95 within 1.5× the RSVP page's;
 * - the link request flooded from one IP at BENCH_PORTAL_FLOOD requests a second (default 150): how many
 *   were answered 202 and how many throttled 429, and the health route's throughput during the flood
 *   against its throughput alone (the rest of the service keeps its speed).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- portal
 *
 * It creates and drops its own database (crm_bench_portal), reuses `.next` when it is newer than the
 * sources (else runs `next build`), and listens on 3274.
 */
import autocannon from "autocannon";
import { connect } from "../../lib/db/client";
import { newPortalToken, PORTAL_COOKIE } from "../../lib/portal/portal-links";
import type { BenchModule } from "./index";
import { freshDatabase, percentile } from "./lib/database";
import {
  databaseCpuMs,
  ensureBuild,
  processTreeCpuMs,
  startNextServer,
  stopNextServer,
} from "./lib/next-server";
import { verdict } from "./lib/verdict";

const PORT = Number(process.env.BENCH_PORTAL_PORT ?? 3274);
const BENCH_DB = "crm_bench_portal";
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const REQUESTS = Number(process.env.BENCH_PORTAL_REQUESTS ?? 300);
const FLOOD = Number(process.env.BENCH_PORTAL_FLOOD ?? 150);
const FLOOD_SECONDS = 10;

interface World {
  workspaceId: string;
  eventId: string;
  cookie: string;
}

/** A workspace with 200 contacts; the signed-in one has topics, registrations, purchases and a membership. */
async function seed(url: string): Promise<World> {
  const sql = connect(url, { max: 1 });
  const [ws] = await sql`insert into public.workspaces (name) values ('Bench venue') returning id`;
  await sql`
    insert into public.contacts (workspace_id, email, first_name, is_subscribed)
    select ${ws.id}, 'c' || i || '@example.test', 'Name' || i, true from generate_series(1, 200) i`;
  const [contact] = await sql`
    select id from public.contacts where workspace_id = ${ws.id} and email = 'c1@example.test'`;
  const topics = await sql`
    insert into public.email_topics (workspace_id, key, name)
    select ${ws.id}, 'topic-' || i, 'Topic ' || i from generate_series(1, 5) i returning id`;
  for (const topic of topics)
    await sql`insert into public.contact_topics (workspace_id, contact_id, topic_id, subscribed)
              values (${ws.id}, ${contact.id}, ${topic.id}, true)
              on conflict on constraint contact_topics_pkey do update set subscribed = true`;
  const events = await sql`
    insert into public.events (workspace_id, name, start_time, end_time, is_published, location, description)
    select ${ws.id}, 'Concert ' || i, now() + make_interval(days => i), now() + make_interval(days => i, hours => 2),
           true, 'Main hall', 'An evening of music.'
    from generate_series(1, 10) i returning id`;
  for (const event of events)
    await sql`insert into public.event_registrations (workspace_id, event_id, contact_id)
              values (${ws.id}, ${event.id}, ${contact.id})`;
  const [product] = await sql`
    insert into public.products (workspace_id, name) values (${ws.id}, 'Ticket') returning id`;
  await sql`
    insert into public.transactions (workspace_id, contact_id, product_id, amount_paid, currency)
    select ${ws.id}, ${contact.id}, ${product.id}, 20 + i, 'eur' from generate_series(1, 20) i`;
  const { token, digest } = newPortalToken();
  await sql`insert into public.portal_sessions (workspace_id, contact_id, token_hash, expires_at)
            values (${ws.id}, ${contact.id}, ${digest}, now() + interval '1 day')`;
  await sql`vacuum analyze`;
  await sql.end();
  return { workspaceId: ws.id, eventId: events[0].id, cookie: `${PORTAL_COOKIE}=${token}` };
}

/** `n` GETs of a page, two at a time; each one's latency in ms. Every answer must be 200. */
async function latencies(url: string, n: number, headers: Record<string, string> = {}): Promise<number[]> {
  const times: number[] = [];
  const one = async () => {
    while (times.length < n) {
      const t0 = performance.now();
      const res = await fetch(url, { headers, redirect: "manual" });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      times.push(performance.now() - t0);
    }
  };
  await Promise.all([one(), one()]);
  return times;
}

const healthRps = async (duration: number) =>
  (await autocannon({ url: `http://127.0.0.1:${PORT}/api/health`, connections: 16, duration })).requests
    .average;

/** One IP asking for sign-in links at FLOOD a second for FLOOD_SECONDS: the answers by status. */
function flood(origin: string, workspaceId: string, connections = 10) {
  const statuses = new Map<number, number>();
  return new Promise<{ total: number; statuses: Map<number, number>; p50: number; p99: number }>(
    (resolve, reject) => {
      const instance = autocannon(
        {
          url: `${origin}/api/portal/${workspaceId}/link`,
          method: "POST",
          connections,
          overallRate: FLOOD,
          duration: FLOOD_SECONDS,
          headers: { "content-type": "application/json", "x-forwarded-for": "203.0.113.9" },
          body: JSON.stringify({ email: "c2@example.test" }),
        },
        (error, result) =>
          error
            ? reject(error)
            : resolve({
                total: result.requests.total,
                statuses,
                p50: result.latency.p50,
                p99: result.latency.p99,
              }),
      );
      instance.on("response", (_client: unknown, status: number) =>
        statuses.set(status, (statuses.get(status) ?? 0) + 1),
      );
    },
  );
}

const bench: BenchModule = {
  title: "portal: the contact's pages against the RSVP page, and the link request flooded from one IP",
  async run(base: string) {
    ensureBuild();
    const db = await freshDatabase(base, BENCH_DB);
    let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
    try {
      const world = await seed(db.url);
      // TRUSTED_PROXY_HOPS=1: the flood's X-Forwarded-For is its one client IP
      server = await startNextServer(PORT, { DATABASE_URL: db.url, TRUSTED_PROXY_HOPS: "1" });
      const origin = `http://127.0.0.1:${PORT}`;
      const pages: { label: string; url: string; headers: Record<string, string> }[] = [
        { label: "RSVP page /rsvp/{event_id}", url: `${origin}/rsvp/${world.eventId}`, headers: {} },
        {
          label: "portal sign-in /portal/{workspace_id}",
          url: `${origin}/portal/${world.workspaceId}`,
          headers: {},
        },
        {
          label: "portal, signed in /portal/{workspace_id}/me",
          url: `${origin}/portal/${world.workspaceId}/me`,
          headers: { cookie: world.cookie },
        },
      ];
      for (const page of pages) await latencies(page.url, 30, page.headers); // warm-up
      const samples = new Map<string, number[]>(pages.map((p) => [p.label, []]));
      // alternating rounds, so every page sees the same machine
      for (let round = 0; round < ROUNDS; round++)
        for (const page of pages)
          samples.get(page.label)!.push(...(await latencies(page.url, REQUESTS, page.headers)));
      const rsvpP95 = percentile(samples.get(pages[0].label)!, 95);
      console.log(
        `\nRender latency: ${ROUNDS} alternating rounds of ${REQUESTS} requests a page, two at a time\n`,
      );
      console.table(
        pages.map((page) => {
          const times = samples.get(page.label)!;
          const p95 = percentile(times, 95);
          return {
            page: page.label,
            requests: times.length,
            "p50 ms": percentile(times, 50).toFixed(1),
            "p95 ms": p95.toFixed(1),
            "p99 ms": percentile(times, 99).toFixed(1),
            "p95 / RSVP's": (p95 / rsvpP95).toFixed(2),
          };
        }),
      );

      // the flood: one IP asking for links at FLOOD a second, alone, then with the health route
      // loaded beside it (and the health route alone, for the ratio)
      // what answering the flood costs: the server's and the database's CPU over its seconds, as a
      // share of the machine's two cores (what is left for every other page)
      const cpu0 = processTreeCpuMs(server.pid ?? 0) + databaseCpuMs(BENCH_DB);
      const floodAlone = await flood(origin, world.workspaceId);
      const floodShare =
        (processTreeCpuMs(server.pid ?? 0) + databaseCpuMs(BENCH_DB) - cpu0) / (FLOOD_SECONDS * 1000 * 2);
      const alone = await healthRps(FLOOD_SECONDS);
      const [beside, floodBeside] = await Promise.all([
        healthRps(FLOOD_SECONDS),
        // enough connections that the flood keeps its rate while the health route loads the server
        flood(origin, world.workspaceId, 100),
      ]);
      const sql = connect(db.url, { max: 1 });
      const [{ links }] = await sql`select count(*)::int as links from public.portal_links`;
      await sql.end();
      console.log(
        `\nThe link request from one IP (X-Forwarded-For 203.0.113.9) offered at ${FLOOD}/s for ${FLOOD_SECONDS} s, ` +
          `alone (10 connections) and beside the health route at 16 connections (the flood on 100); links issued in all: ${links}\n`,
      );
      console.table(
        [
          { phase: "flood alone", ...floodAlone },
          { phase: "flood beside the health route", ...floodBeside },
        ].map((f) => ({
          phase: f.phase,
          "link requests": f.total,
          "answered/s": (f.total / FLOOD_SECONDS).toFixed(1),
          "202": f.statuses.get(202) ?? 0,
          "429": f.statuses.get(429) ?? 0,
          other: [...f.statuses].filter(([s]) => s !== 202 && s !== 429).reduce((n, [, c]) => n + c, 0),
          "p50 ms": f.p50,
          "p99 ms": f.p99,
        })),
      );
      console.log(
        `Answering the flood alone took ${(floodShare * 100).toFixed(1)}% of the machine's two cores (server and database CPU); ` +
          "the health route alone and beside the flood:",
      );
      console.table([
        {
          "health req/s alone": Math.round(alone),
          "health req/s during the flood": Math.round(beside),
          "during / alone": (beside / alone).toFixed(2),
        },
      ]);
      const portalP95 = percentile(samples.get(pages[2].label)!, 95);
      verdict("signed-in portal page p95 / RSVP page p95", portalP95 / rsvpP95, { atMost: 1.5 });
      verdict("flood answered at the rate offered", floodAlone.total / (FLOOD * FLOOD_SECONDS), {
        atLeast: 0.95,
      });
      verdict("machine left to the other pages during the flood", 1 - floodShare, { atLeast: 0.9 });
      verdict("health throughput beside the flood / alone", beside / alone, { atLeast: 0.9 });
    } finally {
      if (server) await stopNextServer(server);
      await db.drop();
    }
  },
};

export default bench;
