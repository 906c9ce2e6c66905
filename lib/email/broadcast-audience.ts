import { z } from "zod";
import type { Db } from "@/lib/db/doors";
import { getDistinctSources } from "@/lib/contacts/get-distinct-sources";
import { uuidSchema } from "@/lib/ids/uuid";
import { listTopics } from "@/lib/consent/topics";
import { segmentCondition, type SegmentFields } from "@/lib/segments/compile";
import type { SegmentFilter } from "@/lib/segments/filter";

/**
 * A broadcast's audience: the contact list's filters (spec 4.15 tag resolution) that make sense
 * for a send: include tags (any/all), exclude tags, source. Written here in SQL, set-based.
 */
export const audienceSchema = z.object({
  tagIds: z.array(uuidSchema).max(50).default([]),
  tagMode: z.enum(["any", "all"]).default("any"),
  excludeTagIds: z.array(uuidSchema).max(50).default([]),
  source: z
    .string()
    .trim()
    .max(100)
    .optional()
    .transform((v) => v || undefined),
  /** the subscription topic (docs/decisions.md, "Subscription topics"); none: every subscribed contact */
  topicId: uuidSchema.optional(),
  /** a saved segment (broadcasts.segment_id): the audience is also limited to its contacts */
  segmentId: z
    .union([uuidSchema, z.literal("")])
    .transform((v) => v || undefined)
    .optional(),
});
/** `segment`: the segment's filter, read with the broadcast (null: its stored filter no longer parses). */
export type Audience = z.output<typeof audienceSchema> & {
  segment?: SegmentFilter | null;
  segmentFields?: SegmentFields;
};

/**
 * The SQL condition selecting the audience's contacts, on a `public.contacts` aliased `c`.
 * 'all' intersects the tags' contact sets, 'any' unions them; excluded tags subtract from the
 * included set, or from all of the workspace's contacts when no tag is included.
 */
export function audienceCondition(db: Db, workspaceId: string, audience: Audience) {
  const { tagIds, tagMode, excludeTagIds, source, topicId } = audience;
  const include =
    tagIds.length === 0
      ? db``
      : tagMode === "all"
        ? db`and c.id in (select ct.contact_id from public.contact_tags ct where ct.tag_id in ${db(tagIds)}
                          group by ct.contact_id having count(distinct ct.tag_id) = ${new Set(tagIds).size})`
        : db`and exists (select 1 from public.contact_tags ct where ct.contact_id = c.id and ct.tag_id in ${db(tagIds)})`;
  const exclude = excludeTagIds.length
    ? db`and not exists (select 1 from public.contact_tags ct where ct.contact_id = c.id and ct.tag_id in ${db(excludeTagIds)})`
    : db``;
  // a topic of another workspace has no subscribers here: the audience is then empty
  const topic = topicId
    ? db`and exists (select 1 from public.contact_topics tp where tp.contact_id = c.id and tp.topic_id = ${topicId}
                     and tp.workspace_id = ${workspaceId} and tp.subscribed)`
    : db``;
  // a segment whose filter no longer parses reaches no one (docs/decisions.md, "Segments")
  const segment =
    audience.segment === undefined
      ? db``
      : audience.segment === null
        ? db`and false`
        : db`and ${segmentCondition(db, workspaceId, audience.segment, audience.segmentFields)}`;
  return db`c.workspace_id = ${workspaceId} ${source ? db`and c.source = ${source}` : db``} ${include} ${exclude} ${topic} ${segment}`;
}

/**
 * Spec 8.3 for marketing, as SQL over the same contact (the preview's counterpart of
 * ineligibilityReason; a test holds the two to the same answers). Null: eligible.
 */
export function marketingSkipReasonSql(db: Db) {
  // one probe of the contact's suppressions, the strongest reason first (a broadcast asks this of
  // every contact of its audience: four EXISTS cost four index probes each, docs/performance.md)
  return db`coalesce(
    (select case min(case s.reason when 'bounce' then 1 when 'complaint' then 2 when 'manual' then 3 else 4 end)
              when 1 then 'bounce suppression' when 2 then 'complaint suppression'
              when 3 then 'manual suppression' when 4 then 'unsubscribe suppression' end
     from public.contact_suppressions s where s.contact_id = c.id),
    case when c.unsubscribed_at is not null then 'unsubscribed'
         when not c.is_subscribed then 'not opted in' end)`;
}

/**
 * The choices the compose form offers: the workspace's tags, subscription topics and contact sources (the sources by
 * getDistinctSources' loose index scan: a million contacts cost what ten do).
 */
export async function audienceOptions(db: Db, workspaceId: string) {
  const [tags, sources, topics] = await Promise.all([
    audienceTags(db, workspaceId),
    getDistinctSources(db, { workspaceId }),
    listTopics(db, workspaceId),
  ]);
  return { tags, sources: sources.data, topics };
}

/** The workspace's tags, by name (a broadcast's page names the tags of its audience). */
export function audienceTags(db: Db, workspaceId: string) {
  return db<{ id: string; name: string }[]>`
    select id, name from public.tags where workspace_id = ${workspaceId} order by name`;
}
