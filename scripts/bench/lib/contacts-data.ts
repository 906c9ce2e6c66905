import type { Sql } from "../../../lib/db/client";

export const FIRST_NAMES = (
  "James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara " +
  "Richard Susan Joseph Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony " +
  "Margaret Mark Sandra Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin " +
  "Amanda Brian Dorothy George Melissa Timothy Deborah"
).split(" ");
export const LAST_NAMES = (
  "Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez " +
  "Lopez Gonzalez Wilson Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark " +
  "Ramirez Lewis Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker " +
  "Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes " +
  "Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos " +
  "Kim Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo " +
  "Sanders Patel Myers"
).split(" ");
export const SOURCES = ["manual", "form", "import", "ticketing", "payproc", "event"];

/**
 * Bulk-loads `count` contacts and `tagCount` tags into a workspace, each contact holding
 * `tagsEach` distinct random tags. Set-based (generate_series); secondary indexes are
 * dropped during the load and rebuilt after, as a bulk load would.
 */
export async function loadContacts(
  sql: Sql,
  opts: { workspaceId: string; count: number; tagCount: number; tagsEach: number; emailPrefix: string },
): Promise<void> {
  const ws = opts.workspaceId;
  await sql`insert into tags (workspace_id, name) select ${ws}, 'tag ' || lpad(i::text, 3, '0') from generate_series(1, ${opts.tagCount}) i`;
  await sql`
    insert into contacts (workspace_id, email, first_name, last_name, phone, source, created_at, is_subscribed,
                          unsubscribed_at, city, country)
    select ${ws}, ${opts.emailPrefix} || i || '@example.com',
      (${FIRST_NAMES}::text[])[1 + (i::bigint * 7919) % ${FIRST_NAMES.length}],
      (${LAST_NAMES}::text[])[1 + (i::bigint * 104729) % ${LAST_NAMES.length}],
      lpad(((i::bigint * 2654435761) % 10000000000)::text, 10, '0'),
      (${SOURCES}::text[])[1 + (i * 31) % 6],
      timestamptz '2023-01-01' + i * interval '97 seconds',
      i % 3 = 0, case when i % 17 = 0 then now() end, 'City ' || (i % 500), 'US'
    from generate_series(1, ${opts.count}) i`;
  await sql`
    insert into contact_tags (contact_id, tag_id, workspace_id)
    select c.id, tg.id, ${ws}
    from (select id, floor(random() * ${opts.tagCount})::int as t from contacts where workspace_id = ${ws}) c
    cross join generate_series(0, ${opts.tagsEach - 1}) k
    join (select id, (row_number() over (order by name))::int - 1 as n from tags where workspace_id = ${ws}) tg
      on tg.n = (c.t + k * 67) % ${opts.tagCount}`;
  await sql`
    insert into contact_suppressions (workspace_id, contact_id, reason)
    select ${ws}, id, 'unsubscribe' from contacts where workspace_id = ${ws} and unsubscribed_at is not null`;
}

/** Runs `load` with the secondary indexes of `tables` dropped and triggers off, then rebuilds them. */
export async function withoutIndexes(
  sql: Sql,
  tables: string[],
  load: (tx: Sql) => Promise<void>,
): Promise<void> {
  const indexes = await sql<{ name: string; def: string }[]>`
    select i.indexname as name, i.indexdef as def from pg_indexes i
    where i.schemaname = 'public' and i.tablename = any(${tables})
      and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`;
  await sql.begin(async (tx) => {
    for (const i of indexes) await tx.unsafe(`drop index public."${i.name}"`);
    await tx`set local session_replication_role = replica`;
    await load(tx as unknown as Sql);
    await tx`set local session_replication_role = origin`;
    await tx`set local maintenance_work_mem = '512MB'`;
    for (const i of indexes) await tx.unsafe(i.def);
  });
}

/**
 * The list benches' tenants: workspace A with one signed-in member (the reader, so RLS applies)
 * and workspace B beside it, whose rows A's queries must skip.
 */
export async function benchWorkspaces(sql: Sql): Promise<{ a: string; b: string; userId: string }> {
  const [a] = await sql`insert into workspaces (name) values ('Bench A') returning id`;
  const [b] = await sql`insert into workspaces (name) values ('Bench B') returning id`;
  const [u] = await sql`insert into auth.users (email) values ('bench@example.com') returning id`;
  await sql`insert into user_profiles (id, email) values (${u.id}, 'bench@example.com')`;
  await sql`insert into workspace_members (workspace_id, user_id, role) values (${a.id}, ${u.id}, 'member')`;
  return { a: a.id, b: b.id, userId: u.id };
}

/**
 * The list benches' contacts: 1,000,000 in A (200 tags, 3 each) and 100,000 in B (20 tags), or
 * `scale` times as many (a quick run on a loaded machine).
 */
export async function loadListContacts(sql: Sql, a: string, b: string, scale = 1): Promise<void> {
  const count = (n: number) => Math.max(1, Math.round(n * scale));
  await loadContacts(sql, {
    workspaceId: a,
    count: count(1_000_000),
    tagCount: 200,
    tagsEach: 3,
    emailPrefix: "a",
  });
  await loadContacts(sql, {
    workspaceId: b,
    count: count(100_000),
    tagCount: 20,
    tagsEach: 3,
    emailPrefix: "b",
  });
}
