import type { Db } from "@/lib/db/doors";
import { isUuid } from "@/lib/ids/uuid";
import { campaignEntries } from "./timeline/campaign-entries";
import { changeEntries } from "./timeline/change-entries";
import { consentEntries } from "./timeline/consent-entries";
import { emailEventEntries, emailSendEntries } from "./timeline/email-entries";
import { checkInEntries, eventEntries } from "./timeline/event-entries";
import { formEntries } from "./timeline/form-entries";
import { noteEntries } from "./timeline/note-entries";
import { paymentEntries } from "./timeline/payment-entries";
import {
  isTimelineKind,
  titledHtml,
  type TimelineEntry,
  type TimelineKind,
  type TimelinePosition,
  type TimelineRow,
  type TimelineSource,
} from "./timeline/types";

/** Every source the timeline merges. A new kind is one more source here. */
export const TIMELINE_SOURCES: TimelineSource[] = [
  noteEntries,
  consentEntries,
  formEntries,
  eventEntries,
  checkInEntries,
  paymentEntries,
  emailSendEntries,
  emailEventEntries,
  campaignEntries,
  changeEntries,
];

export const TIMELINE_PAGE_SIZE = 50;
export const TIMELINE_MAX_PAGE = 200;

/**
 * A contact's whole timeline (docs/decisions.md, "Contact timeline"): notes of type 'contact'
 * (members' and the system's, shown as 'System'), consent changes, form submissions, RSVPs and
 * registrations, purchases, emails and what became of them, merges and source changes, newest
 * first. One statement: a UNION ALL of each source's first `limit + 1` rows after `before`
 * (each through its (contact_id, time) index), ordered by (time, kind, id) and cut to
 * `limit + 1`; never an OFFSET. `kinds` keeps only those kinds. `next` is the position to
 * continue from, or null at the end. The caller's door (RLS) limits what it reads.
 */
export async function getContactTimeline(
  db: Db,
  input: {
    workspaceId: string;
    contactId: string;
    before?: TimelinePosition | null;
    limit?: number;
    kinds?: readonly TimelineKind[] | null;
    withoutIp?: boolean;
  },
): Promise<{ data: TimelineEntry[]; next: TimelinePosition | null }> {
  const limit = Math.min(Math.max(input.limit ?? TIMELINE_PAGE_SIZE, 1), TIMELINE_MAX_PAGE);
  const query = {
    workspaceId: input.workspaceId,
    contactId: input.contactId,
    before: input.before ?? null,
    limit: limit + 1,
    withoutIp: input.withoutIp,
  };
  const kinds = input.kinds?.length ? input.kinds : null;
  const sources = TIMELINE_SOURCES.filter((s) => !kinds || kinds.includes(s.kind));
  const union = sources.map((s) => s.query(db, query)).reduce((all, part) => db`${all} union all ${part}`);
  const rows = await db<TimelineRow[]>`
    select t.at, t.micros, t.kind, t.id, t.author, t.d from (${union}) t
    order by t.at desc, t.kind collate "C" desc, t.id collate "C" desc
    limit ${limit + 1}`;
  const bySource = new Map(sources.map((s) => [s.kind, s]));
  const data = rows.slice(0, limit).map((row) => toEntry(row, bySource.get(row.kind)!));
  return { data, next: rows.length > limit ? data[data.length - 1].position : null };
}

function toEntry(row: TimelineRow, source: TimelineSource): TimelineEntry {
  const shown = source.render(row);
  const { html, text } = "html" in shown ? shown : titledHtml(shown.title, shown.facts, shown.list);
  return {
    kind: row.kind,
    id: row.id,
    occurredAt: new Date(row.at),
    author: row.author,
    html,
    text,
    position: { micros: BigInt(row.micros), kind: row.kind, id: row.id },
  };
}

/** A position as it travels in a URL or an API cursor: '<micros>_<kind>_<id>'. */
export function encodePosition(position: TimelinePosition): string {
  return `${position.micros}_${position.kind}_${position.id}`;
}

/** A position from a URL or a cursor, or null: microseconds of at most 17 digits (lib/time/calendar.ts, isEpochMicros). */
export function decodePosition(value: string | undefined | null): TimelinePosition | null {
  const m = /^(\d{1,17})_([a-z]{1,20})_(.*)$/.exec(value ?? "");
  if (!m || !isTimelineKind(m[2])) return null;
  const id = m[3];
  const valid = m[2] === "change" ? /^\d{20}$/.test(id) : isUuid(id);
  return valid ? { micros: BigInt(m[1]), kind: m[2], id: id.toLowerCase() } : null;
}

/** The kind filter as it travels in a URL: repeated or comma-separated 'kind' values. */
export function parseKinds(value: string | string[] | undefined | null): TimelineKind[] {
  const all = (Array.isArray(value) ? value : [value ?? ""]).flatMap((v) => v.split(","));
  return [...new Set(all.map((v) => v.trim()).filter(isTimelineKind))];
}
