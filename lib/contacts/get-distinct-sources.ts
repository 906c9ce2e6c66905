import type { Db } from "@/lib/db/doors";

/**
 * Spec 4.15 getDistinctSources: the workspace's non-null, non-blank source values,
 * de-duplicated, sorted alphabetically. A loose index scan on (workspace_id, source, ...):
 * one index probe per distinct value, so a million contacts cost as much as ten.
 */
export async function getDistinctSources(
  db: Db,
  input: { workspaceId: string },
): Promise<{ data: string[] }> {
  const rows = await db<{ source: string }[]>`
    with recursive s as (
      (select c.source from public.contacts c
        where c.workspace_id = ${input.workspaceId} and c.source is not null
        order by c.source limit 1)
      union all
      select (select c.source from public.contacts c
               where c.workspace_id = ${input.workspaceId} and c.source > s.source
               order by c.source limit 1)
      from s where s.source is not null
    )
    select source from s where source is not null and btrim(source) <> ''`;
  return { data: rows.map((r) => r.source).sort((a, b) => a.localeCompare(b, "en")) };
}
