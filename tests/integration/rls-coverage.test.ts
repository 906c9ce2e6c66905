import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";

const db = setupTestDatabase();

// Catalog checks that hold for every table, including those added by later migrations.
describe("RLS and index coverage of schema public", () => {
  test("5.4: every table in schema public has row level security enabled", async () => {
    const offenders = await db.sql`
      select c.relname as table
      from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p') and not c.relrowsecurity
      order by 1`;
    expect(offenders).toEqual([]);
  });

  test("5.4: anon has no privilege on any public table or column", async () => {
    const offenders = await db.sql`
      select c.relname as table,
             has_table_privilege('anon', c.oid, 'select, insert, update, delete, truncate, references, trigger') as table_privilege,
             has_any_column_privilege('anon', c.oid, 'select, insert, update, references') as column_privilege
      from pg_class c
      where c.relnamespace = 'public'::regnamespace and c.relkind in ('r', 'p', 'v', 'm')
        and (has_table_privilege('anon', c.oid, 'select, insert, update, delete, truncate, references, trigger')
             or has_any_column_privilege('anon', c.oid, 'select, insert, update, references'))
      order by 1`;
    expect(offenders).toEqual([]);
  });

  test("every foreign key has an index whose leading columns are the key's columns", async () => {
    // a partial index counts when its predicate is '<one of the key columns> IS NOT NULL':
    // the rows a referential action looks for always satisfy it
    const offenders = await db.sql`
      select c.conrelid::regclass::text as table, c.conname as constraint,
             (select string_agg(a.attname, ', ' order by k.n)
                from unnest(c.conkey) with ordinality k(attnum, n)
                join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum) as columns
      from pg_constraint c
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace
        and not exists (
          select 1 from pg_index i
          where i.indrelid = c.conrelid
            and (select array_agg(x order by x) from unnest(i.indkey::int2[]) with ordinality u(x, n)
                  where n <= cardinality(c.conkey))
              = (select array_agg(x order by x) from unnest(c.conkey) x)
            and (i.indpred is null
                 or pg_get_expr(i.indpred, i.indrelid) in (
                   select format('(%I IS NOT NULL)', a.attname) from pg_attribute a
                   where a.attrelid = c.conrelid and a.attnum = any (c.conkey))))
      order by 1, 2`;
    expect(offenders).toEqual([]);
  });

  test("5.4: every link between two workspace-scoped tables includes workspace_id (no cross-workspace references)", async () => {
    // a key (workspace_id, x_id) -> parent (workspace_id, id) keeps both rows in one workspace
    const offenders = await db.sql`
      with scoped as (
        select attrelid from pg_attribute
        where attname = 'workspace_id' and not attisdropped
          and attrelid in (select oid from pg_class where relnamespace = 'public'::regnamespace)
      )
      select c.conrelid::regclass::text as table, c.conname as constraint,
             c.confrelid::regclass::text as references
      from pg_constraint c
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace
        and c.conrelid in (select attrelid from scoped)
        and c.confrelid in (select attrelid from scoped)
        and not (
          (select attnum from pg_attribute where attrelid = c.conrelid and attname = 'workspace_id') = any (c.conkey)
          and (select attnum from pg_attribute where attrelid = c.confrelid and attname = 'workspace_id') = any (c.confkey)
        )
      order by 1, 2`;
    expect(offenders).toEqual([]);
  });
});
