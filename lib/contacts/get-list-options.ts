import type { Db } from "@/lib/db/doors";
import { listTags } from "@/lib/tags/list-tags";
import type { Tag } from "@/lib/tags/tag-schemas";
import { getDistinctSources } from "./get-distinct-sources";

export interface ListOptions {
  tags: Tag[];
  sources: string[];
  events: { id: string; name: string }[];
}

/** What the contacts list's filters offer: the workspace's tags, sources and events. */
export async function getListOptions(db: Db, input: { workspaceId: string }): Promise<ListOptions> {
  const [tags, sources, events] = await Promise.all([
    listTags(db, input),
    getDistinctSources(db, input),
    db<{ id: string; name: string }[]>`
      select id, name from public.events where workspace_id = ${input.workspaceId}
      order by start_time desc nulls last, name limit 500`,
  ]);
  return { tags, sources: sources.data, events };
}
