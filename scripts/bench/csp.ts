/**
 * What the pages' nonce costs (decision record "A strict Content-Security-Policy: scripts by
 * nonce"): every page now passes through proxy.ts (a nonce, the policy on the request and the
 * response) and renders per request. Sequential renders of a few pages through `next start` on a
 * small seed, in alternating rounds (the machine is shared): median and p95 of the server's
 * answer time, and the server's CPU per render. Run it on a build of the code before the change
 * and on one after, on the same machine:
 *
 *   DATABASE_URL=postgres://… BENCH_BUILD=1 npm run bench -- csp
 *
 * BENCH_RUNS sets the renders per page per round (default 40), BENCH_ROUNDS the rounds (5).
 * Listens on 3274.
 */
import { connect } from "../../lib/db/client";
import { signSessionToken } from "../../lib/auth/tokens";
import type { BenchModule } from "./index";
import { freshDatabase, percentile, table } from "./lib/database";
import { ensureBuild, processTreeCpuMs, startNextServer, stopNextServer } from "./lib/next-server";

const PORT = Number(process.env.BENCH_CSP_PORT ?? 3274);
const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARMUP = 5;
const BENCH_DB = process.env.BENCH_CSP_DB ?? "crm_bench_csp";
const OWNER_EMAIL = "owner@bench-csp.test";

const bench: BenchModule = {
  title: "The pages' CSP nonce: server time and CPU per render",
  async run(baseUrl) {
    ensureBuild();
    const db = await freshDatabase(baseUrl, BENCH_DB);
    const sql = connect(db.url, { max: 1 });
    const secret = "bench-csp-auth-secret-0123456789abcdef0123";
    process.env.AUTH_SECRET = secret;
    let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
    try {
      const [ws] = await sql`insert into workspaces (name) values ('Bench Shop') returning id`;
      const [u] =
        await sql`insert into auth.users (email) values (${OWNER_EMAIL}) returning id, session_version`;
      await sql`insert into user_profiles (id, email, timezone) values (${u.id}, ${OWNER_EMAIL}, 'Europe/Paris')`;
      await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${u.id}, 'owner')`;
      await sql`insert into contacts (workspace_id, email, first_name, source)
                select ${ws.id}, 'c' || i || '@example.com', 'C' || i, 'manual' from generate_series(1, 1000) i`;
      const [contact] = await sql`select id from contacts where workspace_id = ${ws.id} limit 1`;
      const [event] = await sql`
        insert into events (workspace_id, name, description, location, start_time, end_time, timezone, is_published)
        values (${ws.id}, 'Summer fair', '<p>Talks, food and music.</p>', 'Hall 1', now() + interval '30 days',
                now() + interval '30 days 3 hours', 'Europe/Paris', true)
        returning id`;
      server = await startNextServer(PORT, { DATABASE_URL: db.url, AUTH_SECRET: secret });
      const token = await signSessionToken({
        id: u.id,
        email: OWNER_EMAIL,
        sessionVersion: u.session_version,
      });
      const cookie = `crm_session=${token}; crm_workspace=${ws.id}`;
      const pages: { label: string; route: string; signedIn: boolean }[] = [
        { label: "/sign-in", route: "/sign-in", signedIn: false },
        // prerendered at build time before the nonce: what a page that becomes dynamic costs
        { label: "/forgot-password", route: "/forgot-password", signedIn: false },
        { label: "/ (dashboard home)", route: "/", signedIn: true },
        { label: "/contacts", route: "/contacts", signedIn: true },
        { label: "/events/:id/edit", route: `/events/${event.id}/edit`, signedIn: true },
        { label: "/rsvp/:id", route: `/rsvp/${event.id}`, signedIn: false },
        { label: "/unsubscribe/:id", route: `/unsubscribe/${contact.id}`, signedIn: false },
      ];
      const get = async (route: string, signedIn: boolean) => {
        const t = performance.now();
        const res = await fetch(`http://127.0.0.1:${PORT}${route}`, {
          headers: signedIn ? { cookie } : {},
          redirect: "manual",
        });
        await res.arrayBuffer();
        return {
          status: res.status,
          csp: res.headers.get("content-security-policy") ?? "",
          ms: performance.now() - t,
        };
      };
      const times = new Map<string, number[]>(pages.map((p) => [p.route, []]));
      const cpu = new Map<string, number[]>(pages.map((p) => [p.route, []]));
      const seen = new Map<string, { status: number; nonce: boolean }>();
      for (const { route, signedIn } of pages) {
        for (let i = 0; i < WARMUP; i++) await get(route, signedIn);
        const { status, csp } = await get(route, signedIn);
        seen.set(route, { status, nonce: csp.includes("'nonce-") });
      }
      for (let round = 0; round < ROUNDS; round++)
        for (const { route, signedIn } of pages) {
          const before = processTreeCpuMs(server.pid!);
          for (let i = 0; i < RUNS; i++) times.get(route)!.push((await get(route, signedIn)).ms);
          cpu.get(route)!.push((processTreeCpuMs(server.pid!) - before) / RUNS);
        }
      console.log(`\n${ROUNDS} alternating rounds of ${RUNS} sequential renders per page`);
      table(
        ["page", "status", "nonce", "median ms", "p95 ms", "server CPU ms/render"],
        pages.map(({ label, route }) => [
          label,
          seen.get(route)!.status,
          seen.get(route)!.nonce ? "yes" : "no",
          percentile(times.get(route)!, 50).toFixed(1),
          percentile(times.get(route)!, 95).toFixed(1),
          percentile(cpu.get(route)!, 50).toFixed(2),
        ]),
      );
    } finally {
      if (server) await stopNextServer(server);
      await sql.end();
      await db.drop();
    }
  },
};

export default bench;
