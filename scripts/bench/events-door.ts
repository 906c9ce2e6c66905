/**
 * npm run bench -- events-door: an event from the first seat to the door (docs/decisions.md, "A waitlist
 * that fills itself", "Tickets and check-in"; docs/performance.md, "Events at the door"), on `next start`
 * and the real Postgres:
 *
 * - 1,000 RSVPs sent at once for 100 seats with the waitlist on: exactly 100 registered and 900 waitlisted,
 *   in line in the order they were taken; throughput against the same 1,000 RSVPs to an event without a
 *   limit (the plain RSVP path), goal ≥ 0.8×;
 * - check-in: two devices (two API keys with events:write) each scanning at 1,000 a minute the same
 *   tickets in the same order, so every ticket is raced: 0 double check-ins, the server's p99;
 * - the offer cascade: 100 seats freed at once with 1,000 waiting: the time until every offer is out
 *   (goal ≤ 60 s).
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres npm run bench -- events-door
 *
 * It creates and drops its own database (crm_bench_events_door), reuses `.next` when it is newer than the
 * sources (else runs `next build`), and listens on 3275. BENCH_DOOR_SCAN_SECONDS (default 20) is how long
 * the devices scan.
 */
import { hashApiKey, newApiKey } from "../../lib/api-keys/hash-api-key";
import { connect, setSql, type Sql } from "../../lib/db/client";
import { withService } from "../../lib/db/doors";
import { issueTicket } from "../../lib/events/tickets/issue-ticket";
import { cancelRegistration } from "../../lib/events/waitlist/offers";
import { log } from "../../lib/observability/log";
import type { BenchModule } from "./index";
import { freshDatabase, percentile } from "./lib/database";
import { ensureBuild, startNextServer, stopNextServer } from "./lib/next-server";
import { verdict } from "./lib/verdict";

const PORT = Number(process.env.BENCH_DOOR_PORT ?? 3275);
const BENCH_DB = "crm_bench_events_door";
const RSVPS = 1_000;
const SEATS = 100;
const WAITING = 1_000;
const SCAN_SECONDS = Number(process.env.BENCH_DOOR_SCAN_SECONDS ?? 20);
const SCANS_PER_MINUTE = 1_000;

async function createEvent(sql: Sql, workspaceId: string, fields: Record<string, unknown>): Promise<string> {
  const row = {
    workspace_id: workspaceId,
    name: "Concert",
    start_time: new Date(Date.now() + 7 * 86_400_000),
    end_time: new Date(Date.now() + 7 * 86_400_000 + 3 * 3_600_000),
    timezone: "UTC",
    is_published: true,
    ...fields,
  };
  const [event] = await sql`insert into public.events ${sql(row)} returning id`;
  return event.id;
}

/** `count` RSVPs to one event sent at once, each from an address and IP of its own; wall ms and statuses. */
async function rsvpsAtOnce(origin: string, eventId: string, label: string, count: number) {
  const statuses = new Map<number, number>();
  const positions: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const res = await fetch(`${origin}/api/rsvp/${eventId}`, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "x-forwarded-for": `10.${Math.floor(i / 250)}.${i % 250}.${label === "plain" ? 1 : 2}`,
        },
        body: JSON.stringify({ email: `${label}-${i}@example.test` }),
      });
      const body = (await res.json()) as { position?: number };
      if (res.status === 202 && typeof body.position === "number") positions.push(body.position);
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    }),
  );
  return { ms: performance.now() - t0, statuses, positions };
}

/** One scanning device: the tickets in order at SCANS_PER_MINUTE until the time is up; latencies by status. */
async function device(origin: string, eventId: string, key: string, tickets: string[]) {
  const gap = 60_000 / SCANS_PER_MINUTE;
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const started = performance.now();
  for (let i = 0; i < tickets.length && performance.now() - started < SCAN_SECONDS * 1000; i++) {
    const due = started + i * gap;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const t0 = performance.now();
    const res = await fetch(`${origin}/api/v1/events/${eventId}/check-ins`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify({ ticket: tickets[i] }),
    });
    await res.arrayBuffer();
    latencies.push(performance.now() - t0);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  return { latencies, statuses };
}

const bench: BenchModule = {
  title: "events-door: a full event's RSVPs and waitlist, two scanners at the door, the offer cascade",
  async run(base: string) {
    ensureBuild();
    const db = await freshDatabase(base, BENCH_DB);
    const sql = connect(db.url, { max: 4 });
    setSql(sql);
    let server: Awaited<ReturnType<typeof startNextServer>> | undefined;
    try {
      const [ws] = await sql`insert into public.workspaces (name) values ('Bench hall') returning id`;
      const workspaceId: string = ws.id;
      const plainEvent = await createEvent(sql, workspaceId, { name: "Open day" });
      const fullEvent = await createEvent(sql, workspaceId, { capacity: SEATS, waitlist_enabled: true });
      // the door: 2,000 registered with their tickets
      const doorEvent = await createEvent(sql, workspaceId, { name: "At the door" });
      const scanned = Math.ceil((SCANS_PER_MINUTE * SCAN_SECONDS) / 60);
      await sql`
        insert into public.contacts (workspace_id, email)
        select ${workspaceId}, 'door-' || i || '@example.test' from generate_series(1, ${scanned}) i`;
      const doorRegistrations = await sql<{ id: string }[]>`
        insert into public.event_registrations (workspace_id, event_id, contact_id)
        select ${workspaceId}, ${doorEvent}, id from public.contacts
        where workspace_id = ${workspaceId} and email like 'door-%' returning id`;
      const tickets = await withService(async (tx) => {
        const out: string[] = [];
        for (const r of doorRegistrations)
          out.push((await issueTicket(tx, { workspaceId, registrationId: r.id }))!);
        return out;
      });
      const keys = [newApiKey(), newApiKey()];
      for (const [i, key] of keys.entries())
        await sql`insert into public.api_keys (workspace_id, name, key_hash, scopes)
                  values (${workspaceId}, ${`Scanner ${i + 1}`}, ${hashApiKey(key)}, ${sql.array(["events:write"])})`;
      // the cascade: 100 seats taken and 1,000 in line
      const cascadeEvent = await createEvent(sql, workspaceId, {
        name: "Sold out",
        capacity: SEATS,
        waitlist_enabled: true,
      });
      await sql`
        insert into public.contacts (workspace_id, email)
        select ${workspaceId}, 'line-' || i || '@example.test' from generate_series(1, ${SEATS + WAITING}) i`;
      const seated = await sql<{ id: string; status: string }[]>`
        insert into public.event_registrations (workspace_id, event_id, contact_id, status, waitlist_position)
        select ${workspaceId}, ${cascadeEvent}, c.id,
               case when n <= ${SEATS} then 'registered' else 'waitlisted' end,
               case when n > ${SEATS} then nextval('public.event_waitlist_seq') end
        from (select id, row_number() over (order by email) as n from public.contacts
              where workspace_id = ${workspaceId} and email like 'line-%') c
        order by n
        returning id, status`;
      await sql`vacuum analyze`;

      // the check-in's rate per key: two devices at 1,000 a minute each are above the default 600
      server = await startNextServer(PORT, {
        DATABASE_URL: db.url,
        TRUSTED_PROXY_HOPS: "1",
        API_RATE_LIMIT: "100000",
      });
      const origin = `http://127.0.0.1:${PORT}`;
      // warm-up: both paths compiled and connected
      await rsvpsAtOnce(origin, await createEvent(sql, workspaceId, { name: "Warm-up" }), "warm", 50);

      // 1. RSVPs: the plain path, then the full event with its waitlist
      const plain = await rsvpsAtOnce(origin, plainEvent, "plain", RSVPS);
      const full = await rsvpsAtOnce(origin, fullEvent, "full", RSVPS);
      const [counts] = await sql<{ registered: number; waitlisted: number; other: number }[]>`
        select count(*) filter (where status = 'registered')::int as registered,
               count(*) filter (where status = 'waitlisted')::int as waitlisted,
               count(*) filter (where status not in ('registered', 'waitlisted'))::int as other
        from public.event_registrations where event_id = ${fullEvent}`;
      // in line in the order taken: each waitlisted answer named its place, and the places are 1 to 900,
      // each once (a place is the count ahead plus one, read under the event's lock)
      const places = new Set(full.positions);
      const inLine =
        places.size === full.positions.length &&
        full.positions.every((p) => p >= 1 && p <= full.positions.length);
      const rate = (r: { ms: number }) => RSVPS / (r.ms / 1000);
      const show = (m: Map<number, number>) =>
        [...m]
          .sort(([a], [b]) => a - b)
          .map(([s, n]) => `${s}: ${n}`)
          .join(", ");
      console.log(`\n${RSVPS} RSVPs sent at once, each from an address and IP of its own\n`);
      console.table([
        {
          event: "no limit (the plain RSVP path)",
          "wall s": (plain.ms / 1000).toFixed(2),
          "RSVPs/s": rate(plain).toFixed(0),
          answers: show(plain.statuses),
          registered: RSVPS,
        },
        {
          event: `${SEATS} seats, waitlist on`,
          "wall s": (full.ms / 1000).toFixed(2),
          "RSVPs/s": rate(full).toFixed(0),
          answers: show(full.statuses),
          registered: counts.registered,
          waitlisted: counts.waitlisted,
          other: counts.other,
          "places answered": full.positions.length,
          "places 1..n, each once": inLine,
        },
      ]);

      // 2. two scanners racing over the same tickets
      const devices = await Promise.all(keys.map((key) => device(origin, doorEvent, key, tickets)));
      const [door] = await sql<{ check_ins: number; tickets_twice: number }[]>`
        select count(*)::int as check_ins,
               (select count(*)::int from (select registration_id from public.event_check_ins
                  where event_id = ${doorEvent} group by registration_id having count(*) > 1) d) as tickets_twice
        from public.event_check_ins where event_id = ${doorEvent}`;
      const all = devices.flatMap((d) => d.latencies);
      const statuses = new Map<number, number>();
      for (const d of devices) for (const [s, n] of d.statuses) statuses.set(s, (statuses.get(s) ?? 0) + n);
      console.log(
        `\nTwo devices scanning the same ${tickets.length} tickets in the same order at ${SCANS_PER_MINUTE} a minute each for ${SCAN_SECONDS} s\n`,
      );
      console.table([
        {
          scans: all.length,
          answers: show(statuses),
          "check-ins stored": door.check_ins,
          "tickets checked in twice": door.tickets_twice,
          "p50 ms": percentile(all, 50).toFixed(1),
          "p99 ms": percentile(all, 99).toFixed(1),
        },
      ]);

      // 3. the cascade: every seat freed at once
      const seats = seated.filter((r) => r.status === "registered");
      log.level = "warn"; // the dev outbox logs each offer email it keeps
      const t0 = performance.now();
      const cancelled = await Promise.all(
        seats.map((r) => withService((tx) => cancelRegistration(tx, { workspaceId, registrationId: r.id }))),
      );
      const cascadeMs = performance.now() - t0;
      const offered = cancelled.reduce((n, c) => n + ("data" in c ? c.data.offered.length : 0), 0);
      const [cascade] = await sql<{ offered: number; emails: number; first_in_line: number }[]>`
        select count(*) filter (where r.status = 'offered')::int as offered,
               (select count(*)::int from public.email_sends e
                where e.workspace_id = ${workspaceId} and e.subject like 'A seat opened up%') as emails,
               count(*) filter (where r.status = 'offered' and r.waitlist_position <= (
                 select min(waitlist_position) + ${SEATS} - 1 from public.event_registrations
                 where event_id = ${cascadeEvent} and waitlist_position is not null))::int as first_in_line
        from public.event_registrations r where r.event_id = ${cascadeEvent}`;
      console.log(`\n${SEATS} seats freed at once with ${WAITING} waiting\n`);
      console.table([
        {
          "seats freed": seats.length,
          "offers made": offered,
          "registrations offered": cascade.offered,
          "of them the first 100 in line": cascade.first_in_line,
          "offer emails": cascade.emails,
          "s until every offer is out": (cascadeMs / 1000).toFixed(2),
        },
      ]);

      verdict("RSVPs/s with the waitlist / the plain RSVP path", rate(full) / rate(plain), { atLeast: 0.8 });
      verdict("tickets checked in twice", door.tickets_twice, { atMost: 0 });
      verdict("seconds until every offer is out", cascadeMs / 1000, { atMost: 60 });
    } finally {
      if (server) await stopNextServer(server);
      setSql(undefined);
      await sql.end();
      await db.drop();
    }
  },
};

export default bench;
