/**
 * npm run bench -- contacts-bulk-insert: a member's bulk insert of contacts in one statement
 * (docs/performance.md, "A member's bulk insert"): signed in as a workspace member (role
 * authenticated, RLS and every trigger on contacts in force), 10,000 contacts, rolled back each run
 * so every run starts from the same table. It times the INSERT statement alone, with its triggers:
 * the BEFORE row checks (per row) and the AFTER statement work (counts, dashboard stats, address
 * suppressions, custom fields' typed rows, webhooks outbox).
 * - plain: email, names and source, as a dashboard import writes them
 * - with custom fields: two defined fields per contact (the check and the typed rows)
 * - with a webhook endpoint: plain rows in a workspace with an endpoint (contact.created outbox)
 * BENCH_BULK_CONTACTS (10000) and BENCH_BULK_RUNS (7) change the size and the runs; the figure is
 * the median. It creates and drops its own database (crm_bench_bulk_insert) beside DATABASE_URL's.
 */
import type { Sql } from "../../lib/db/client";
import { withUser, type Claims } from "../../lib/db/doors";
import { benchDatabase, percentile, table } from "./lib/database";
import { ownedWorkspace } from "./lib/owner";

const CONTACTS = Number(process.env.BENCH_BULK_CONTACTS ?? 10_000);
const RUNS = Number(process.env.BENCH_BULK_RUNS ?? 7);

class RolledBack extends Error {}

/** A member (role 'member') of the workspace and their claims. */
async function member(sql: Sql, workspaceId: string, name: string): Promise<Claims> {
  const email = `bench-${name}@example.test`;
  const [user] = await sql`insert into auth.users (email) values (${email}) returning id`;
  await sql`insert into user_profiles (id, email) values (${user.id}, ${email})`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${workspaceId}, ${user.id}, 'member')`;
  return { sub: user.id, role: "authenticated", email, aal: "aal1" };
}

/** The insert statement's milliseconds, as the member, rolled back. */
async function insertOnce(claims: Claims, workspaceId: string, withFields: boolean): Promise<number> {
  let ms = 0;
  try {
    await withUser(claims, async (tx) => {
      const t = performance.now();
      await tx`
        insert into contacts (workspace_id, email, first_name, last_name, source, custom_fields)
        select ${workspaceId}, 'Bulk' || i || '@Example.test ', 'First' || i, 'Last' || i, 'import',
               case when ${withFields}::boolean
                    then jsonb_build_object('tier', (array['gold', 'silver'])[1 + i % 2], 'score', i % 100)
                    else '{}'::jsonb end
        from generate_series(1, ${CONTACTS}) i`;
      ms = performance.now() - t;
      throw new RolledBack();
    });
  } catch (error) {
    if (!(error instanceof RolledBack)) throw error;
  }
  return ms;
}

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("Set DATABASE_URL to a Postgres server");
  const db = await benchDatabase(base, "crm_bench_bulk_insert", { max: 2 });
  const sql = db.sql;
  try {
    const plain = await ownedWorkspace(sql, "bulk-plain");
    const hooked = await ownedWorkspace(sql, "bulk-webhook");
    const plainMember = await member(sql, plain.workspaceId, "bulk-plain-member");
    const hookedMember = await member(sql, hooked.workspaceId, "bulk-webhook-member");
    await sql`
      insert into custom_fields (workspace_id, key, label, field_type, options)
      values (${plain.workspaceId}, 'tier', 'Tier', 'select', '{bronze,silver,gold}'),
             (${plain.workspaceId}, 'score', 'Score', 'number', '{}')`;
    // 1,000 contacts already there, as in any workspace
    await sql`
      insert into contacts (workspace_id, email, source)
      select w, 'existing' || i || '@example.test', 'manual'
      from unnest(array[${plain.workspaceId}::uuid, ${hooked.workspaceId}::uuid]) w, generate_series(1, 1000) i`;
    await sql`analyze`;

    const cases: [string, () => Promise<number>][] = [
      ["plain", () => insertOnce(plainMember, plain.workspaceId, false)],
      ["with custom fields", () => insertOnce(plainMember, plain.workspaceId, true)],
    ];
    const timings = new Map<string, number[]>(cases.map(([name]) => [name, []]));
    // one warm-up of each, then the cases in turn, so a busy moment of the machine hits all of them
    for (const [, fn] of cases) await fn();
    for (let r = 0; r < RUNS; r++) for (const [name, fn] of cases) timings.get(name)!.push(await fn());

    // the webhook case last: an endpoint anywhere turns the outbox on for every workspace
    await sql`
      insert into webhook_endpoints (workspace_id, url, secret_ciphertext, event_types)
      values (${hooked.workspaceId}, 'https://example.test/hook', 'bench', array['contact.created'])`;
    const hookedRuns: number[] = [];
    await insertOnce(hookedMember, hooked.workspaceId, false);
    for (let r = 0; r < RUNS; r++) hookedRuns.push(await insertOnce(hookedMember, hooked.workspaceId, false));
    timings.set("with a webhook endpoint", hookedRuns);

    console.log(
      `(a member inserts ${CONTACTS} contacts in one statement; median of ${RUNS} rolled-back runs)`,
    );
    table(
      ["insert", "p50 ms", "min ms", "max ms", "µs/row"],
      [...timings].map(([name, all]) => [
        name,
        percentile(all, 50).toFixed(0),
        Math.min(...all).toFixed(0),
        Math.max(...all).toFixed(0),
        ((percentile(all, 50) * 1000) / CONTACTS).toFixed(1),
      ]),
    );
  } finally {
    await db.drop();
  }
}
