/**
 * npm run bench -- topics: subscription topics (docs/decisions.md, "Subscription topics").
 * - The broadcast audience count (previewBroadcast, as the signed-in owner, RLS in force) at
 *   100,000 contacts: every subscribed contact (no topic) against the subscribers of one topic
 *   (the contact_topics predicate). Goal: the topic's count costs at most 2x the plain one.
 * - The first topic's backfill (every subscribed contact joins it) at 100,000 contacts.
 * - The database rule keeping the topics in step with is_subscribed on bulk writes: inserting
 *   20,000 subscribed contacts into a workspace with topics against one without. Goal: at most 2x.
 *
 * It creates and drops its own database (crm_bench_topics) beside DATABASE_URL's.
 */
import type { Sql } from "../../lib/db/client";
import { withService, withUser } from "../../lib/db/doors";
import { createTopic } from "../../lib/consent/topics";
import { audienceSchema } from "../../lib/email/broadcast-audience";
import { previewBroadcast } from "../../lib/email/broadcasts";
import { benchDatabase } from "./lib/database";
import { ownedWorkspace as workspace } from "./lib/owner";
import { verdict } from "./lib/verdict";

const CONTACTS = Number(process.env.BENCH_TOPICS_CONTACTS ?? 100_000);
const BULK = Number(process.env.BENCH_TOPICS_BULK ?? 20_000);

async function median(times: number, fn: () => Promise<unknown>): Promise<number> {
  const all: number[] = [];
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await fn();
    all.push(performance.now() - t);
  }
  all.sort((a, b) => a - b);
  return all[Math.floor(times / 2)];
}

async function topic(workspaceId: string, key: string, defaultOn: boolean): Promise<string> {
  const result = await withService((db) =>
    createTopic(db, { workspaceId, key, name: key, description: "", defaultOn }),
  );
  if ("error" in result) throw result.error;
  return result.data.id;
}

/** Inserts `n` subscribed contacts in one statement (as an import's bulk write); its seconds. */
async function bulkInsert(sql: Sql, workspaceId: string, prefix: string, n: number): Promise<number> {
  const t = performance.now();
  await sql`
    insert into contacts (workspace_id, email, is_subscribed)
    select ${workspaceId}, ${prefix} || i || '@example.test', true from generate_series(1, ${n}) i`;
  return (performance.now() - t) / 1000;
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("Set DATABASE_URL to a Postgres server");
  const db = await benchDatabase(base, "crm_bench_topics", { max: 4, keep: false });
  const sql = db.sql;
  const rows: Record<string, string | number>[] = [];
  try {
    const { workspaceId, claims } = await workspace(sql, "topics");
    // 80% subscribed, 5% unsubscribed, the rest never opted in (as the email benchmark)
    await sql`
      insert into contacts (workspace_id, email, is_subscribed, unsubscribed_at)
      select ${workspaceId}, 'c' || i || '@example.test', i % 20 < 16, case when i % 20 = 16 then now() end
      from generate_series(1, ${CONTACTS}) i`;
    await sql`analyze contacts`;
    const count = (topicId?: string) =>
      withUser(claims, (tx) =>
        previewBroadcast(tx, { workspaceId, audience: audienceSchema.parse({ topicId }) }),
      );

    const plain = await median(5, () => count());
    const before = await count();

    const t = performance.now();
    const newsletter = await topic(workspaceId, "newsletter", true);
    const backfill = (performance.now() - t) / 1000;
    const events = await topic(workspaceId, "events", false);
    // a third of the subscribers also chose Events
    await sql`
      insert into contact_topics (workspace_id, contact_id, topic_id, subscribed)
      select workspace_id, id, ${events}, true from contacts
      where workspace_id = ${workspaceId} and is_subscribed and random() < 0.33`;
    await sql`analyze contact_topics`;

    const all = await median(5, () => count());
    const byNewsletter = await median(5, () => count(newsletter));
    const byEvents = await median(5, () => count(events));
    const eventsCount = await count(events);
    const newsletterCount = await count(newsletter);
    rows.push({
      measure: `audience count, no topic (${before.total} contacts, median of 5)`,
      value: `${plain.toFixed(0)} ms`,
    });
    rows.push({ measure: "audience count, no topic, workspace with topics", value: `${all.toFixed(0)} ms` });
    rows.push({
      measure: `audience count, topic 'newsletter' (${newsletterCount.eligible} eligible)`,
      value: `${byNewsletter.toFixed(0)} ms`,
    });
    rows.push({
      measure: `audience count, topic 'events' (${eventsCount.eligible} eligible)`,
      value: `${byEvents.toFixed(0)} ms`,
    });
    rows.push({
      measure: `first topic's backfill (${before.eligible} subscribed)`,
      value: `${backfill.toFixed(2)} s`,
    });

    const other = await workspace(sql, "no-topics");
    const without = await bulkInsert(sql, other.workspaceId, "n", BULK);
    const withTopics = await bulkInsert(sql, workspaceId, "t", BULK);
    rows.push({
      measure: `insert ${BULK} subscribed contacts, workspace without topics`,
      value: `${without.toFixed(2)} s`,
    });
    rows.push({
      measure: `insert ${BULK} subscribed contacts, workspace with topics`,
      value: `${withTopics.toFixed(2)} s`,
    });
    console.table(rows);
    // the baseline is the faster of the two no-topic counts (the first runs on a colder cache)
    verdict(
      "audience count by topic vs without topic",
      Math.max(byNewsletter, byEvents) / Math.min(plain, all),
      {
        atMost: 2,
      },
    );
    verdict("bulk insert with topics vs without", withTopics / without, { atMost: 2 });
  } finally {
    await db.drop();
  }
}
