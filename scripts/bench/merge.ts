/**
 * Merging contacts (docs/decisions.md, "Merging contacts"), two measurements, each a ratio against a
 * floor measured in the same run:
 * 1. mergeContacts as a signed-in member (RLS on, withUser) of a B with many dependents (notes,
 *    tags, submissions, sends, ledger entries, transactions, registrations) into an A holding
 *    half of the same tags, against the floor: deleting a contact with the same dependents
 *    (the cascade and set-null of spec 2.4.2, withUser). Goal: at most 6x.
 * 2. findDuplicates (page 1) at 100,000 contacts of one workspace (plus 100,000 in another),
 *    2% of them sharing a phone with another, names drawn from 5,000 common first/last pairs, against
 *    the floor: a count of the workspace's contacts by its index. Goal: at most 40x.
 *    BENCH_MERGE_CONTACTS sets the 100,000 (a smaller run on a loaded machine).
 * 3. "Not a duplicate" (dismiss-duplicate.ts): page 1 with 1,000 pairs of the workspace dismissed
 *    (none of them on it) against page 1 before any (the exclusion's cost; goal at most 1.5x);
 *    marking a pair as a member against tagging a contact as a member (goal at most 3x); and page 1
 *    once its own pairs are dismissed (the scan reads on: reported, no goal).
 */
import { dismissDuplicate } from "../../lib/contacts/merge/dismiss-duplicate";
import { findDuplicates } from "../../lib/contacts/merge/find-duplicates";
import { mergeContacts } from "../../lib/contacts/merge/merge-contacts";
import type { Sql } from "../../lib/db/client";
import { withUser, type Claims } from "../../lib/db/doors";
import type { BenchModule } from "./index";
import { loadContacts, withoutIndexes } from "./lib/contacts-data";
import { benchDatabase, percentile, table } from "./lib/database";
import { verdict } from "./lib/verdict";

const PAIRS = Number(process.env.BENCH_RUNS ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 10);
const CONTACTS = Number(process.env.BENCH_MERGE_CONTACTS ?? 100_000);

/** Per contact: how many rows of each dependent table the merged contact B holds. */
const DEPENDENTS = {
  notes: 200,
  tags: 50,
  submissions: 100,
  sends: 100,
  ledger: 50,
  transactions: 50,
  rsvps: 20,
};

/** A contact with DEPENDENTS rows, the tags and events shared by every contact of the run. */
async function contactWithDependents(sql: Sql, ws: string, tags: string[], events: string[], form: string) {
  const [c] =
    await sql`insert into contacts (workspace_id, email) values (${ws}, 'b' || gen_random_uuid() || '@example.com') returning id`;
  const d = DEPENDENTS;
  await sql`insert into notes (workspace_id, contact_id, type, content, content_text)
            select ${ws}, ${c.id}, 'contact', '<p>n</p>', 'n' from generate_series(1, ${d.notes})`;
  await sql`insert into contact_tags (workspace_id, contact_id, tag_id)
            select ${ws}, ${c.id}, t from unnest(${tags.slice(0, d.tags)}::uuid[]) t`;
  await sql`insert into form_submissions (workspace_id, form_id, contact_id, payload)
            select ${ws}, ${form}, ${c.id}, '{}' from generate_series(1, ${d.submissions})`;
  await sql`insert into email_sends (workspace_id, contact_id, to_email, kind)
            select ${ws}, ${c.id}, 'x@example.com', 'transactional' from generate_series(1, ${d.sends})`;
  await sql`insert into consent_events (workspace_id, contact_id, action, flow)
            select ${ws}, ${c.id}, 'subscribed', 'bench' from generate_series(1, ${d.ledger})`;
  await sql`insert into transactions (workspace_id, contact_id, amount_paid, external_payproc_transaction_id)
            select ${ws}, ${c.id}, 10, 'cs_' || gen_random_uuid() from generate_series(1, ${d.transactions})`;
  await sql`insert into event_registrations (workspace_id, contact_id, event_id, status)
            select ${ws}, ${c.id}, e, 'registered' from unnest(${events.slice(0, d.rsvps)}::uuid[]) e`;
  return c.id as string;
}

async function timeEach(items: string[][], run: (item: string[]) => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (const item of items) {
    const started = performance.now();
    await run(item);
    times.push(performance.now() - started);
  }
  return times;
}

const bench: BenchModule = {
  title: "Contact merge: a merge with many dependents; the duplicates list at 100,000 contacts",
  async run(baseUrl) {
    const db = await benchDatabase(baseUrl, "crm_bench_merge", { keep: false });
    try {
      const sql = db.sql;
      const [ws] = await sql`insert into workspaces (name) values ('Bench merge') returning id`;
      const [other] = await sql`insert into workspaces (name) values ('Bench other') returning id`;
      const [dupWs] = await sql`insert into workspaces (name) values ('Bench duplicates') returning id`;
      const [u] = await sql`insert into auth.users (email) values ('bench@example.com') returning id`;
      await sql`insert into user_profiles (id, email) values (${u.id}, 'bench@example.com')`;
      await sql`insert into workspace_members (workspace_id, user_id, role)
                values (${ws.id}, ${u.id}, 'member'), (${dupWs.id}, ${u.id}, 'member')`;
      const claims: Claims = { sub: u.id, role: "authenticated", email: "bench@example.com" };

      // 1. merge against delete
      const tags = (
        await sql`insert into tags (workspace_id, name) select ${ws.id}, 'm' || i from generate_series(1, 60) i returning id`
      ).map((r) => r.id as string);
      const events = (
        await sql`insert into events (workspace_id, name) select ${ws.id}, 'e' || i from generate_series(1, 30) i returning id`
      ).map((r) => r.id as string);
      const [form] = await sql`insert into forms (workspace_id, name) values (${ws.id}, 'f') returning id`;
      const make = () => contactWithDependents(sql, ws.id, tags, events, form.id);
      const pairs: string[][] = [];
      const lone: string[][] = [];
      for (let i = 0; i < PAIRS; i++) {
        const [a] =
          await sql`insert into contacts (workspace_id, email) values (${ws.id}, ${`a${i}@example.com`}) returning id`;
        await sql`insert into contact_tags (workspace_id, contact_id, tag_id)
                  select ${ws.id}, ${a.id}, t from unnest(${tags.slice(25, 50)}::uuid[]) t`;
        pairs.push([a.id, await make()]);
        lone.push([await make()]);
      }
      await sql`analyze`;
      const deletes = await timeEach(lone, ([id]) =>
        withUser(claims, (tx) => tx`delete from contacts where id = ${id}`),
      );
      const merges = await timeEach(pairs, ([keepId, mergeId]) =>
        withUser(claims, async (tx) => {
          const r = await mergeContacts(tx, {
            workspaceId: ws.id,
            keepId,
            mergeId,
            choices: {},
            actorUserId: u.id,
          });
          if ("error" in r) throw r.error;
        }),
      );
      const rowsEach = Object.values(DEPENDENTS).reduce((s, n) => s + n, 0);
      console.log(
        `B holds ${rowsEach} dependent rows (${JSON.stringify(DEPENDENTS)}); ${PAIRS} merges, ${PAIRS} deletes`,
      );
      const mergeP50 = percentile(merges, 50);
      const deleteP50 = percentile(deletes, 50);

      // 2. duplicates at 100,000 contacts
      const t = Date.now();
      await withoutIndexes(sql, ["contacts", "contact_tags", "contact_suppressions"], async (tx) => {
        await loadContacts(tx, {
          workspaceId: dupWs.id,
          count: CONTACTS,
          tagCount: 20,
          tagsEach: 1,
          emailPrefix: "d",
        });
        await loadContacts(tx, {
          workspaceId: other.id,
          count: CONTACTS,
          tagCount: 20,
          tagsEach: 1,
          emailPrefix: "o",
        });
      });
      // emails unlike each other (the generated ones differ by a digit), 2% sharing a phone. After the
      // indexes are back: updated rows with no index are HOT chains, and an index built over them is
      // usable only by transactions younger than any open on the server (pg_index.indcheckxmin), so
      // another long transaction would leave the duplicates query without its key indexes.
      await sql`update contacts set email = md5(id::text) || '@example.com' where email like 'd%'`;
      await sql`update contacts c set phone = p.phone
               from (select id, lag(phone) over (order by id) as phone from contacts where workspace_id = ${dupWs.id}) p
               where c.id = p.id and p.phone is not null and (hashtext(c.id::text) % 50) = 0`;
      await sql`vacuum analyze`;
      console.log(`loaded ${2 * CONTACTS} contacts in ${((Date.now() - t) / 1000).toFixed(0)} s`);
      const dup = await timeEach(
        Array.from({ length: RUNS }, () => []),
        () => withUser(claims, (tx) => findDuplicates(tx, { workspaceId: dupWs.id })),
      );
      const floor = await timeEach(
        Array.from({ length: RUNS }, () => []),
        () => withUser(claims, (tx) => tx`select count(*) from contacts where workspace_id = ${dupWs.id}`),
      );
      const first = await withUser(claims, (tx) => findDuplicates(tx, { workspaceId: dupWs.id }));
      const [counts] = await sql`
        select count(*) filter (where public.contact_phone_key(phone) is not null)::int as phones,
               count(distinct public.contact_name_key(first_name, last_name))::int as names
        from contacts where workspace_id = ${dupWs.id}`;
      console.log(
        `${counts.phones} phones, ${counts.names} distinct names; page 1 holds ${first.pairs.length} pairs`,
      );

      // 3. "Not a duplicate": 1,000 dismissed pairs of older contacts, none on page 1
      const onPage = new Set(first.pairs.flatMap((p) => [p.a.id, p.b.id]));
      await sql`
        insert into duplicate_dismissals (workspace_id, contact_id, other_contact_id)
        select ${dupWs.id}, least(a, b), greatest(a, b)
        from (select id as a, lead(id) over (order by created_at, id) as b,
                     row_number() over (order by created_at, id) as n
              from contacts where workspace_id = ${dupWs.id} and not (id = any(${[...onPage]}::uuid[]))) p
        where n % 2 = 1 and b is not null limit 1000`;
      await sql`analyze duplicate_dismissals`;
      const withDismissals = await timeEach(
        Array.from({ length: RUNS }, () => []),
        () => withUser(claims, (tx) => findDuplicates(tx, { workspaceId: dupWs.id })),
      );
      const [tag] = await sql`select id from tags where workspace_id = ${dupWs.id} limit 1`;
      const untagged = await sql`
        select c.id from contacts c where c.workspace_id = ${dupWs.id}
          and not exists (select 1 from contact_tags t where t.contact_id = c.id and t.tag_id = ${tag.id})
        limit ${RUNS}`;
      const tagging = await timeEach(
        untagged.map((r) => [r.id as string]),
        ([id]) =>
          withUser(
            claims,
            (tx) =>
              tx`insert into contact_tags (workspace_id, contact_id, tag_id) values (${dupWs.id}, ${id}, ${tag.id})`,
          ),
      );
      const marking = await timeEach(
        first.pairs.slice(0, RUNS).map((p) => [p.a.id, p.b.id]),
        ([contactId, otherContactId]) =>
          withUser(claims, async (tx) => {
            const r = await dismissDuplicate(tx, {
              workspaceId: dupWs.id,
              contactId,
              otherContactId,
              userId: u.id,
            });
            if ("error" in r) throw r.error;
          }),
      );
      await sql`
        insert into duplicate_dismissals (workspace_id, contact_id, other_contact_id)
        select ${dupWs.id}, least(a, b), greatest(a, b)
        from unnest(${first.pairs.map((p) => p.a.id)}::uuid[], ${first.pairs.map((p) => p.b.id)}::uuid[]) x(a, b)
        on conflict do nothing`;
      const pageDismissed = await timeEach(
        Array.from({ length: RUNS }, () => []),
        () => withUser(claims, (tx) => findDuplicates(tx, { workspaceId: dupWs.id })),
      );

      const dupP50 = percentile(dup, 50);
      const floorP50 = percentile(floor, 50);
      const withP50 = percentile(withDismissals, 50);
      const markP50 = percentile(marking, 50);
      const tagP50 = percentile(tagging, 50);
      table(
        ["measurement", "p50 ms", "p95 ms", "floor p50 ms", "ratio"],
        [
          [
            "merge B into A",
            mergeP50.toFixed(1),
            percentile(merges, 95).toFixed(1),
            deleteP50.toFixed(1),
            (mergeP50 / deleteP50).toFixed(2),
          ],
          [
            `duplicates page 1 @${CONTACTS}`,
            dupP50.toFixed(1),
            percentile(dup, 95).toFixed(1),
            floorP50.toFixed(1),
            (dupP50 / floorP50).toFixed(2),
          ],
          [
            "page 1, 1,000 other pairs dismissed",
            withP50.toFixed(1),
            percentile(withDismissals, 95).toFixed(1),
            dupP50.toFixed(1),
            (withP50 / dupP50).toFixed(2),
          ],
          [
            "mark a pair not a duplicate",
            markP50.toFixed(1),
            percentile(marking, 95).toFixed(1),
            tagP50.toFixed(1),
            (markP50 / tagP50).toFixed(2),
          ],
          [
            "page 1 after its own pairs are dismissed",
            percentile(pageDismissed, 50).toFixed(1),
            percentile(pageDismissed, 95).toFixed(1),
            dupP50.toFixed(1),
            (percentile(pageDismissed, 50) / dupP50).toFixed(2),
          ],
        ],
      );
      verdict("merge / delete of the same contact", mergeP50 / deleteP50, { atMost: 6 });
      verdict("duplicates page / count of the workspace's contacts", dupP50 / floorP50, { atMost: 40 });
      verdict("duplicates page with 1,000 dismissals / without", withP50 / dupP50, { atMost: 1.5 });
      verdict("mark a pair not a duplicate / tag a contact", markP50 / tagP50, { atMost: 3 });
    } finally {
      await db.drop();
    }
  },
};

export default bench;
