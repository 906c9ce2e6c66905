import type { ListQuery } from "@/lib/contacts/list-query";
import type { Condition, SegmentFilter } from "./filter";

/**
 * The contact list's URL filters (spec 4.15 getContacts) as the one filter object, so a filtered
 * list can be saved as a segment: search words, included tags (any/all), excluded tags, source,
 * event registration and email status, all of them together. The saved segment's count equals
 * the list's total (a test holds the two together).
 */
export function listQueryToFilter(q: ListQuery): SegmentFilter {
  const conditions: Condition[] = [];
  if (q.search?.trim()) conditions.push({ kind: "search", not: false, text: q.search.trim() });
  if (q.tagIds.length) conditions.push({ kind: "tag", not: false, match: q.tagMode, tagIds: q.tagIds });
  if (q.excludeTagIds.length)
    conditions.push({ kind: "tag", not: true, match: "any", tagIds: q.excludeTagIds });
  if (q.source) conditions.push({ kind: "source", not: false, sources: [q.source] });
  if (q.eventId) conditions.push({ kind: "event_registered", not: false, eventId: q.eventId });
  if (q.emailStatus) conditions.push({ kind: "email_status", not: false, status: q.emailStatus });
  return { version: 1, root: { kind: "group", op: "and", not: false, conditions } };
}
