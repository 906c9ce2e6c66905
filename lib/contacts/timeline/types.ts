import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";
import { escapeHtml } from "@/lib/html/escape";

/** Entries are ordered by (time, id), newest first; time in microseconds, as Postgres keeps it. */
export interface TimelinePosition {
  micros: bigint;
  id: string;
}

/** One entry of a contact's timeline, whatever its kind. */
export interface TimelineEntry {
  /** 'note', 'consent'; later issues add more kinds (transactions, ...) */
  kind: string;
  id: string;
  occurredAt: Date;
  /** who wrote or did it: a member's name, or 'System' */
  author: string;
  /** HTML built from escaped values (the page renders it through a sanitizer as well) */
  html: string;
  text: string;
  position: TimelinePosition;
}

export interface TimelineQuery {
  workspaceId: string;
  contactId: string;
  /** only entries after this position (the previous page's last entry) */
  before: TimelinePosition | null;
  limit: number;
}

/** A kind of timeline entry: its first `limit` entries after `before`, newest first. */
export type TimelineSource = (db: Db, query: TimelineQuery) => Promise<TimelineEntry[]>;

/** How an actor reads on the timeline: a member's name, or 'System' for a null actor. */
export function authorSql(db: Db, actor: string): postgres.PendingQuery<postgres.Row[]> {
  return db.unsafe(`case
    when ${actor} is null then 'System'
    else coalesce(
      (select coalesce(nullif(btrim(concat_ws(' ', p.first_name, p.last_name)), ''), p.email)
         from public.user_profiles p where p.id = ${actor}),
      'A former member')
  end`);
}

/** The row's time as whole microseconds since the epoch (text, exact). */
export function microsSql(db: Db, time: string): postgres.PendingQuery<postgres.Row[]> {
  return db.unsafe(`((extract(epoch from ${time}) * 1000000)::bigint)::text`);
}

/** `and (time, id) < before`, or nothing on the first page. */
export function afterPosition(
  db: Db,
  time: string,
  id: string,
  before: TimelinePosition | null,
): postgres.PendingQuery<postgres.Row[]> {
  if (!before) return db``;
  return db`and (${db.unsafe(time)}, ${db.unsafe(id)}) <
    (timestamptz 'epoch' + ${before.micros.toString()}::bigint * interval '1 microsecond', ${before.id}::uuid)`;
}

/** Timeline order: newer first; equal times by id, larger first (uuid order = hex string order). */
export function compareEntries(a: TimelineEntry, b: TimelineEntry): number {
  if (a.position.micros !== b.position.micros) return a.position.micros > b.position.micros ? -1 : 1;
  return a.position.id === b.position.id ? 0 : a.position.id > b.position.id ? -1 : 1;
}

/**
 * An entry that is a title and its details (the empty ones left out): the text joins them with
 * ". ", the HTML sets the title in bold above the details.
 */
export function titledEntry(
  kind: string,
  row: { id: string; micros: string },
  occurredAt: Date,
  author: string,
  title: string,
  facts: (string | false | null)[],
): TimelineEntry {
  const details = facts.filter((d): d is string => Boolean(d));
  return {
    kind,
    id: row.id,
    occurredAt,
    author,
    text: [title, ...details].join(". "),
    html:
      `<p><strong>${escapeHtml(title)}</strong></p>` +
      (details.length ? `<p>${details.map(escapeHtml).join(" · ")}</p>` : ""),
    position: { micros: BigInt(row.micros), id: row.id },
  };
}
