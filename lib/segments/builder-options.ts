import type { Db } from "@/lib/db/doors";
import { getDistinctSources } from "@/lib/contacts/get-distinct-sources";

/** What the segment builder offers: the workspace's tags, sources, forms, events and products by name. */
export async function builderOptions(db: Db, workspaceId: string) {
  const named = (table: "tags" | "forms" | "events" | "products") =>
    db<{ id: string; name: string }[]>`
      select id, name from ${db(`public.${table}`)} where workspace_id = ${workspaceId} order by lower(name), id limit 200`;
  const [tags, forms, events, products, sources] = await Promise.all([
    named("tags"),
    named("forms"),
    named("events"),
    named("products"),
    getDistinctSources(db, { workspaceId }),
  ]);
  return { tags, forms, events, products, sources: sources.data };
}
