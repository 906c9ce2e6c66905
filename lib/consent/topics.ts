import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { refused, type Result } from "@/lib/errors/app-error";

/** A workspace's subscription topic (docs/decisions.md, "Subscription topics"). */
export interface Topic {
  id: string;
  key: string;
  name: string;
  description: string;
  default_on: boolean;
}

export interface TopicState extends Topic {
  subscribed: boolean;
  changed_at: Date | null;
}

export const topicSchema = z.object({
  name: z.string().trim().min(1, "Name the topic.").max(100, "Keep the name under 100 characters."),
  key: z
    .string()
    .trim()
    .toLowerCase()
    .regex(
      /^[a-z0-9][a-z0-9_-]{0,49}$/,
      "Use up to 50 lowercase letters, digits, '-' or '_', starting with a letter or digit.",
    ),
  description: z.string().trim().max(500, "Keep the description under 500 characters.").default(""),
  defaultOn: z.boolean().default(false),
});
export type TopicInput = z.output<typeof topicSchema>;

/** The workspace's topics, by name. */
export function listTopics(db: Db, workspaceId: string): Promise<Topic[]> {
  return db<Topic[]>`
    select id, key, name, description, default_on from public.email_topics
    where workspace_id = ${workspaceId} order by lower(name), id`;
}

/**
 * The ids among `ids` that name a topic of the workspace, in the workspace's order: what a
 * client sent (a form's settings, the preference centre, a link) is never trusted for the
 * workspace.
 */
export async function resolveTopicIds(
  db: Db,
  workspaceId: string,
  ids: readonly unknown[],
): Promise<string[]> {
  const candidates = [...new Set(ids.filter((id): id is string => isUuid(id)))];
  if (!candidates.length) return [];
  const rows = await db<{ id: string }[]>`
    select id from public.email_topics
    where workspace_id = ${workspaceId} and id in ${db(candidates)} order by lower(name), id`;
  return rows.map((r) => r.id);
}

/** Every topic of the contact's workspace with the contact's state in it. */
export function contactTopicStates(
  db: Db,
  input: { workspaceId: string; contactId: string },
): Promise<TopicState[]> {
  return db<TopicState[]>`
    select t.id, t.key, t.name, t.description, t.default_on,
           coalesce(ct.subscribed, false) as subscribed, ct.changed_at
    from public.email_topics t
    left join public.contact_topics ct on ct.topic_id = t.id and ct.contact_id = ${input.contactId}
    where t.workspace_id = ${input.workspaceId}
    order by lower(t.name), t.id`;
}

const KEY_TAKEN = "Another topic already uses this key.";

/**
 * Owners and admins define topics. The workspace's first topic holds every contact already
 * subscribed (the database does it, public.email_topics_first_topic), so is_subscribed stays
 * "any topic on" from the start.
 */
export async function createTopic(
  db: Db,
  input: { workspaceId: string } & TopicInput,
): Promise<Result<{ id: string }>> {
  const [row] = await db<{ id: string }[]>`
    insert into public.email_topics (workspace_id, key, name, description, default_on)
    values (${input.workspaceId}, ${input.key}, ${input.name}, ${input.description}, ${input.defaultOn})
    on conflict (workspace_id, key) do nothing
    returning id`;
  if (!row) return refused("conflict", KEY_TAKEN, { field: "key" });
  return { data: { id: row.id } };
}

/** Renames a topic or changes its default; the key is how the API and links name it, and stays. */
export async function updateTopic(
  db: Db,
  input: { workspaceId: string; topicId: string } & Omit<TopicInput, "key">,
): Promise<Result<{ id: string }>> {
  if (!isUuid(input.topicId)) return refused("not_found", "Topic not found.");
  const [row] = await db<{ id: string }[]>`
    update public.email_topics
    set name = ${input.name}, description = ${input.description}, default_on = ${input.defaultOn}
    where id = ${input.topicId} and workspace_id = ${input.workspaceId}
    returning id`;
  if (!row) return refused("not_found", "Topic not found.");
  return { data: { id: row.id } };
}

/** How many contacts are subscribed to each topic (the settings page). */
export async function topicSubscriberCounts(db: Db, workspaceId: string): Promise<Map<string, number>> {
  const rows = await db<{ topic_id: string; count: number }[]>`
    select topic_id, count(*)::int as count from public.contact_topics
    where workspace_id = ${workspaceId} and subscribed group by topic_id`;
  return new Map(rows.map((r) => [r.topic_id, r.count]));
}

/** Whether `topicId` is a topic of the workspace (an id from a client is looked up inside it). */
export async function topicInWorkspace(db: Db, workspaceId: string, topicId: string): Promise<boolean> {
  const [row] =
    await db`select 1 from public.email_topics where id = ${topicId} and workspace_id = ${workspaceId}`;
  return Boolean(row);
}
