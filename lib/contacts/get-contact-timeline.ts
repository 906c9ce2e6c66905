import type { Db } from "@/lib/db/doors";
import { consentEntries } from "./timeline/consent-entries";
import { emailEntries } from "./timeline/email-entries";
import { noteEntries } from "./timeline/note-entries";
import {
  compareEntries,
  type TimelineEntry,
  type TimelinePosition,
  type TimelineSource,
} from "./timeline/types";
import { isUuid } from "@/lib/ids/uuid";

/** Every kind of entry the timeline merges. A new kind is one more source here. */
export const TIMELINE_SOURCES: TimelineSource[] = [noteEntries, consentEntries, emailEntries];

export const TIMELINE_PAGE_SIZE = 50;

/**
 * A contact's timeline: notes of type 'contact' (members' and the system's, shown as
 * 'System'), consent changes and what became of the emails sent to them, merged newest first. Each source returns its first
 * `limit` entries after `before`, so their merge holds exactly the first `limit` overall;
 * `next` is the position to continue from, or null at the end.
 */
export async function getContactTimeline(
  db: Db,
  input: { workspaceId: string; contactId: string; before?: TimelinePosition | null; limit?: number },
): Promise<{ data: TimelineEntry[]; next: TimelinePosition | null }> {
  const limit = Math.min(Math.max(input.limit ?? TIMELINE_PAGE_SIZE, 1), 200);
  const query = {
    workspaceId: input.workspaceId,
    contactId: input.contactId,
    before: input.before ?? null,
    limit: limit + 1,
  };
  const lists = await Promise.all(TIMELINE_SOURCES.map((source) => source(db, query)));
  const merged = lists.flat().sort(compareEntries);
  const data = merged.slice(0, limit);
  return { data, next: merged.length > limit ? data[data.length - 1].position : null };
}

/** A position as it travels in a URL: '<micros>_<id>'. */
export function encodePosition(position: TimelinePosition): string {
  return `${position.micros}_${position.id}`;
}

export function decodePosition(value: string | undefined | null): TimelinePosition | null {
  const m = /^(\d{1,20})_(.*)$/.exec(value ?? "");
  return m && isUuid(m[2]) ? { micros: BigInt(m[1]), id: m[2] } : null;
}
