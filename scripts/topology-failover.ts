/**
 * The topology tier's failover case (docs/deployment.md "Failover"; DESIGN.md section 9
 * "Failover"): a pg_auto_failover formation from Debian's packages (tests/helpers/auto-failover.ts)
 * behind a multi-host DATABASE_URL, `npm start` (the web server and a worker in one process, as the
 * smallest deployment runs it) under form, RSVP, email webhook and API load (~30 requests/s, each
 * item a new address or event id, from its own client IP). The primary's keeper and postmaster are
 * SIGKILLed midway. A request answered 503 (or not answered) is sent again, unchanged, as a client
 * following Retry-After does: the public write paths are safe to repeat. Asserted:
 * - every 2xx answer's row exists on the new primary;
 * - no answer but 2xx and 503 (a lost database is never 500 `internal`);
 * - no email is sent twice, and every confirmation of an RSVP answered 2xx is sent (the worker
 *   resumed, its jobs ran once);
 * - the service answers a 2xx again within 30 s of the kill; /api/ready and the worker's /ready
 *   answer 200 again;
 * - the process that ran through the failover is the one that started (no crash, no restart).
 */
import { randomUUID } from "node:crypto";
import type { ChildProcess } from "node:child_process";
import { rm } from "node:fs/promises";
import { hashApiKey, newApiKey } from "../lib/api-keys/hash-api-key";
import { connect } from "../lib/db/client";
import { migrate } from "../lib/db/migrate";
import { installJobs } from "../lib/jobs/flows/start-worker";
import { autoctlBinary, startAutoFailover, type AutoFailover } from "../tests/helpers/auto-failover";
import { freePort } from "../tests/helpers/pgbouncer";
import { createForm } from "../tests/helpers/forms";
import { resendEvent, resendWebhookRequest, startFakeResend, type FakeResend } from "../tests/fakes/resend";

export interface TopologyTools {
  stage<T>(name: string, fn: () => Promise<T>): Promise<T>;
  start(name: string, cmd: string, args: string[], env: NodeJS.ProcessEnv): ChildProcess;
  stop(child: ChildProcess, graceMs?: number): Promise<void>;
  waitForOk(url: string, what: string, timeoutMs?: number): Promise<void>;
}

export { autoctlBinary };

type Kind = "form" | "rsvp" | "webhook" | "api";

interface Item {
  kind: Kind;
  /** the email address (form, rsvp, api) or the svix id (webhook) the row is found by */
  key: string;
  ip: string;
  attempts: number;
  statuses: number[];
  /** when the 2xx came, and whether the attempt answered was sent after the kill */
  okAt?: number;
  okAfterKill?: boolean;
}

const RATE_PER_SECOND = Number(process.env.FAILOVER_RATE ?? 30);
const KILL_AFTER_MS = 8_000;
const RUN_AFTER_KILL_MS = 40_000;
const ANSWER_WITHIN_MS = 30_000;

export async function failoverCase(tools: TopologyTools): Promise<void> {
  const { stage, start, stop, waitForOk } = tools;
  let formation: AutoFailover | undefined;
  let resend: FakeResend | undefined;
  let app: ChildProcess | undefined;
  const [webPort, workerPort] = [await freePort(), await freePort()];
  try {
    formation = await stage("failover: pg_auto_failover monitor, primary and synchronous secondary", () =>
      startAutoFailover({ database: "crm_failover" }),
    );
    const url = formation.url();
    console.log(`[failover] DATABASE_URL=${url}`);
    await stage("failover: migrations and the job engine through the multi-host URL", async () => {
      const sql = connect(url, { max: 1 });
      await migrate(sql);
      await sql.end();
      await installJobs(url);
    });

    const apiKey = newApiKey();
    const seed = connect(url, { max: 1 });
    const [ws] = await seed`insert into public.workspaces (name) values ('Failover load') returning id`;
    await seed`insert into public.api_keys (workspace_id, name, key_hash, scopes)
               values (${ws.id}, 'load', ${hashApiKey(apiKey)}, '{contacts:write,contacts:read}')`;
    const [event] = await seed`
      insert into public.events (workspace_id, name, is_published, start_time, end_time)
      values (${ws.id}, 'Failover event', true, now() + interval '1 day', now() + interval '2 days')
      returning id`;
    const form = await createForm(seed, ws.id, { require_verification: false });
    await seed.end();

    resend = await startFakeResend();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      ...resend.env,
      RESEND_API_KEY: "re_failover_test",
      RESEND_REQUESTS_PER_SECOND: "200",
      DATABASE_URL: url,
      AUTH_SECRET: newApiKey(),
      APP_URL: `http://localhost:${webPort}`,
      PORT: String(webPort),
      WORKER_PORT: String(workerPort),
      DATA_DIR: `.data/topology-failover-${webPort}`,
      SEED_DEMO: "0",
      SKIP_BUILD: "1",
      JOBS_POLL_SECONDS: "0.5",
      JOBS_SUPERVISE_SECONDS: "2",
      NODE_ENV: "production",
    };
    delete env.CI;
    delete env.DATABASE_DIRECT_URL;
    delete env.DATABASE_READ_URL;
    const base = `http://localhost:${webPort}`;
    await stage("failover: npm start (web server and worker) on the multi-host URL", async () => {
      app = start(`failover:${webPort}`, "npm", ["start"], env);
      await waitForOk(`${base}/api/ready`, "the web server");
      await waitForOk(`http://127.0.0.1:${workerPort}/ready`, "the worker");
    });
    const appPid = app!.pid;

    // an email to report on: the webhook load's events are about it
    const first = await send(
      base,
      { kind: "rsvp", key: `seed-${randomUUID()}@example.test`, ip: "198.51.100.1" },
      { event: event.id, form: form.id, apiKey, messageId: "" },
    );
    if (first.status !== 200) throw new Error(`the first RSVP answered ${first.status}`);
    const messageId = await until("the first RSVP's confirmation was not sent", 30_000, async () => {
      const db = connect(url, { max: 1 });
      try {
        const [row] =
          await db`select provider_message_id from public.email_sends where provider_message_id is not null limit 1`;
        return (row?.provider_message_id as string | undefined) ?? null;
      } finally {
        await db.end();
      }
    });
    const targets = { event: event.id as string, form: form.id, apiKey, messageId };

    // a fresh `next start` compiles each route on its first requests: warm every path up until it
    // answers within a second, so the load measures the failover and not the first hits
    await stage("failover: warming up each path", async () => {
      for (const kind of ["form", "rsvp", "webhook", "api"] as Kind[])
        for (let i = 0; i < 40; i++) {
          const key =
            kind === "webhook"
              ? `msg_warm_${randomUUID().replaceAll("-", "")}`
              : `warm-${kind}-${randomUUID()}@example.test`;
          const began = Date.now();
          const res = await send(base, { kind, key, ip: `192.0.2.${(i % 250) + 1}` }, targets);
          if (res.status >= 300) throw new Error(`warming up ${kind}: ${res.status}`);
          if (Date.now() - began < 1000 && i >= 2) break;
        }
    });

    const items: Item[] = [];
    const unexpected: string[] = [];
    let killAt = 0;
    let firstOkAfterKill = 0;
    let inFlight = 0;
    const attempt = async (item: Item, deadline: number): Promise<void> => {
      const sentAt = Date.now();
      item.attempts++;
      inFlight++;
      let status = 0;
      let retryAfter = 1;
      try {
        const res = await send(base, item, targets);
        status = res.status;
        retryAfter = Number(res.retryAfter ?? 1) || 1;
      } catch {
        status = 0; // no answer: the connection failed or timed out
      } finally {
        inFlight--;
      }
      item.statuses.push(status);
      if (status >= 200 && status < 300) {
        item.okAt = Date.now();
        item.okAfterKill = killAt > 0 && sentAt >= killAt;
        if (item.okAfterKill && !firstOkAfterKill) firstOkAfterKill = item.okAt;
        return;
      }
      if (status !== 503 && status !== 0) unexpected.push(`${item.kind} ${item.key}: ${status}`);
      if (Date.now() + retryAfter * 1000 > deadline) return;
      await new Promise((resolve) => setTimeout(resolve, Math.min(retryAfter, 2) * 1000));
      return attempt(item, deadline);
    };

    await stage(
      `failover: load at ${RATE_PER_SECOND}/s, the primary SIGKILLed after ${KILL_AFTER_MS / 1000} s`,
      async () => {
        const kinds: Kind[] = ["form", "rsvp", "webhook", "api"];
        const started = Date.now();
        const stopCreating = started + KILL_AFTER_MS + RUN_AFTER_KILL_MS;
        const retryDeadline = stopCreating + 30_000;
        const running: Promise<void>[] = [];
        const report = setInterval(() => {
          const ok = items.filter((i) => i.okAt).length;
          const s503 = items.reduce((n, i) => n + i.statuses.filter((s) => s === 503).length, 0);
          const none = items.reduce((n, i) => n + i.statuses.filter((s) => s === 0).length, 0);
          console.log(
            `[failover] ${((Date.now() - started) / 1000).toFixed(0)} s: ${items.length} items, ${ok} answered 2xx, ${s503} 503s, ${none} unanswered, ${inFlight} in flight`,
          );
        }, 5_000);
        let n = 0;
        const killer = setTimeout(() => {
          void (async () => {
            const primary = await formation!.primary();
            if (!primary) throw new Error("no primary to kill");
            killAt = Date.now();
            formation!.kill(primary);
            console.log(
              `[failover] SIGKILL to ${primary.name}'s keeper and postmaster (port ${primary.port})`,
            );
          })();
        }, KILL_AFTER_MS);
        while (Date.now() < stopCreating) {
          const kind = kinds[n % kinds.length];
          n++;
          const key =
            kind === "webhook"
              ? `msg_${randomUUID().replaceAll("-", "")}`
              : `${kind}-${randomUUID()}@example.test`;
          const item: Item = {
            kind,
            key,
            ip: `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
            attempts: 0,
            statuses: [],
          };
          items.push(item);
          running.push(attempt(item, retryDeadline));
          await new Promise((resolve) => setTimeout(resolve, 1000 / RATE_PER_SECOND));
        }
        clearTimeout(killer);
        await Promise.all(running);
        clearInterval(report);
      },
    );

    await stage(
      "failover: every 2xx's row on the new primary, no email twice, the worker resumed",
      async () => {
        const answered = items.filter((i) => i.okAt);
        const unanswered = items.filter((i) => !i.okAt);
        const took = firstOkAfterKill ? (firstOkAfterKill - killAt) / 1000 : Infinity;
        const newPrimary = await formation!.primary();
        console.log(
          `[failover] ${items.length} items (${answered.length} answered 2xx, ${unanswered.length} never), ` +
            `${items.reduce((s, i) => s + i.attempts, 0)} requests; first 2xx of a request sent after the kill ` +
            `${took.toFixed(1)} s after it; new primary ${newPrimary?.name}`,
        );
        const problems: string[] = [];
        if (!killAt) problems.push("the primary was never killed");
        if (!(took <= ANSWER_WITHIN_MS / 1000))
          problems.push(`no 2xx within ${ANSWER_WITHIN_MS / 1000} s of the kill (${took} s)`);
        if (unexpected.length)
          problems.push(`answers other than 2xx and 503: ${unexpected.slice(0, 10).join("; ")}`);
        if (!newPrimary || newPrimary.port === undefined) problems.push("no new primary");
        if (app!.exitCode !== null || app!.pid !== appPid) problems.push("the app process did not survive");

        const db = connect(newPrimary!.url(), { max: 1 });
        try {
          const emails = answered.filter((i) => i.kind !== "webhook").map((i) => i.key);
          const contacts = new Set(
            (
              await db`select email from public.contacts where workspace_id = ${ws.id} and email = any(${emails})`
            ).map((r) => r.email as string),
          );
          const registered = new Set(
            (
              await db`select c.email from public.event_registrations r join public.contacts c on c.id = r.contact_id
                     where r.event_id = ${event.id}`
            ).map((r) => r.email as string),
          );
          const submitted = new Set(
            (
              await db`select c.email from public.form_submissions s join public.contacts c on c.id = s.contact_id
                     where s.form_id = ${form.id}`
            ).map((r) => r.email as string),
          );
          const svixIds = answered.filter((i) => i.kind === "webhook").map((i) => i.key);
          const events = new Set(
            (await db`select svix_id from public.email_events where svix_id = any(${svixIds})`).map(
              (r) => r.svix_id as string,
            ),
          );
          const lost = answered.filter((i) =>
            i.kind === "webhook"
              ? !events.has(i.key)
              : !contacts.has(i.key) ||
                (i.kind === "rsvp" && !registered.has(i.key)) ||
                (i.kind === "form" && !submitted.has(i.key)),
          );
          console.log(`[failover] 2xx answers whose row is missing on the new primary: ${lost.length}`);
          if (lost.length)
            problems.push(
              `lost acknowledged writes: ${lost
                .slice(0, 5)
                .map((i) => `${i.kind} ${i.key}`)
                .join(", ")}`,
            );

          // the worker resumed: every confirmation of a 2xx RSVP is sent, each once
          const rsvps = answered.filter((i) => i.kind === "rsvp").map((i) => i.key);
          const confirmed = await until("the RSVP confirmations were not all sent", 60_000, async () => {
            const to = new Set(resend!.sent.flatMap((e) => (Array.isArray(e.to) ? e.to : [e.to])));
            return rsvps.every((email) => to.has(email)) ? to : null;
          }).catch(() => null);
          if (!confirmed) {
            const to = new Set(resend!.sent.flatMap((e) => (Array.isArray(e.to) ? e.to : [e.to])));
            problems.push(
              `confirmations not sent: ${rsvps.filter((e) => !to.has(e)).length} of ${rsvps.length}`,
            );
          }
          const seen = new Map<string, number>();
          for (const e of resend!.sent) {
            const key = `${[e.to].flat().join(",")}|${e.subject}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
          }
          const twice = [...seen].filter(([, count]) => count > 1);
          console.log(`[failover] emails sent: ${resend!.sent.length}, sent twice: ${twice.length}`);
          if (twice.length)
            problems.push(
              `emails sent twice: ${twice
                .slice(0, 5)
                .map(([k]) => k)
                .join("; ")}`,
            );
        } finally {
          await db.end();
        }
        for (const [what, target] of [
          ["/api/ready", `${base}/api/ready`],
          ["the worker's /ready", `http://127.0.0.1:${workerPort}/ready`],
        ])
          await waitForOk(target, what, 30_000).catch(() =>
            problems.push(`${what} is not ready after the failover`),
          );
        if (problems.length) throw new Error(`failover: ${problems.join(" | ")}`);
      },
    );
  } finally {
    if (app) await stop(app);
    await resend?.stop();
    await formation?.stop();
    await rm(`.data/topology-failover-${webPort}`, { recursive: true, force: true });
  }
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | null>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe().catch(() => null);
    if (found !== null) return found;
    if (Date.now() > deadline) throw new Error(what);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** One attempt of an item, as a browser, a provider or an API client sends it. */
async function send(
  base: string,
  item: Pick<Item, "kind" | "key" | "ip">,
  to: { event: string; form: string; apiKey: string; messageId: string },
): Promise<{ status: number; retryAfter: string | null }> {
  const headers = { "x-forwarded-for": item.ip };
  const signal = AbortSignal.timeout(15_000);
  let res: Response;
  switch (item.kind) {
    case "form":
      res = await fetch(`${base}/api/forms/${to.form}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ email: item.key, first_name: "Load" }),
        signal,
      });
      break;
    case "rsvp":
      res = await fetch(`${base}/api/rsvp/${to.event}`, {
        method: "POST",
        headers: { ...headers, "content-type": "application/json" },
        body: JSON.stringify({ email: item.key, first_name: "Load", last_name: "Test" }),
        signal,
      });
      break;
    case "webhook": {
      // the same svix id on every attempt, as Svix redelivers
      const request = resendWebhookRequest(
        `${base}/api/webhooks/email`,
        resendEvent("email.delivered", to.messageId),
        {
          id: item.key,
        },
      );
      res = await fetch(request.url, {
        method: "POST",
        headers: { ...Object.fromEntries(request.headers), ...headers },
        body: await request.text(),
        signal,
      });
      break;
    }
    case "api":
      res = await fetch(`${base}/api/v1/contacts`, {
        method: "POST",
        headers: {
          ...headers,
          authorization: `Bearer ${to.apiKey}`,
          "content-type": "application/json",
          "idempotency-key": item.key,
        },
        body: JSON.stringify({ email: item.key, first_name: "Api" }),
        signal,
      });
      break;
  }
  await res.arrayBuffer();
  return { status: res.status, retryAfter: res.headers.get("retry-after") };
}
