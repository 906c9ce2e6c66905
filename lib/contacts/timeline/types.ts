import type postgres from "postgres";
import type { Db } from "@/lib/db/doors";
import { escapeHtml } from "@/lib/html/escape";

/**
 * The kinds of timeline entry, and the kind filter's choices. Entries are ordered by
 * (time, kind, id), newest first; kinds compare as plain ASCII.
 */
export const TIMELINE_KINDS = [
  "note",
  "consent",
  "form",
  "event",
  "payment",
  "email",
  "campaign",
  "change",
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

export function isTimelineKind(value: unknown): value is TimelineKind {
  return typeof value === "string" && (TIMELINE_KINDS as readonly string[]).includes(value);
}

/** Where a page ends: (time in microseconds, as Postgres keeps it; kind; id as text). */
export interface TimelinePosition {
  micros: bigint;
  kind: TimelineKind;
  id: string;
}

/** One entry of a contact's timeline, whatever its kind. */
export interface TimelineEntry {
  kind: TimelineKind;
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
  /** leave the address a consent was given from out (an API key's timeline: docs/api.md, "Scopes") */
  withoutIp?: boolean;
}

/**
 * One row every source selects, so the sources can be one UNION ALL: the time, its microseconds
 * (text, exact), the kind, the id as text (uuid text sorts as the uuid does), the author and
 * the kind's own facts as a JSON object.
 */
export interface TimelineRow {
  at: Date;
  micros: string;
  kind: TimelineKind;
  id: string;
  author: string;
  d: Record<string, unknown>;
}

/**
 * A source of entries: its first `limit` rows after `before`, newest first, read through an
 * index on (contact_id, time), and how such a row reads on the page.
 */
export interface TimelineSource {
  kind: TimelineKind;
  query: (db: Db, q: TimelineQuery) => postgres.PendingQuery<postgres.Row[]>;
  render: (
    row: TimelineRow,
  ) => { title: string; facts: Fact[]; list?: string[] } | { html: string; text: string };
}

export type Fact = string | false | null | undefined;

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

/**
 * The keyset condition of one source (docs/decisions.md, "Contact timeline"): the rows that
 * come after `before` in (time desc, kind desc, id desc) order. For a kind below the cursor's,
 * rows at the cursor's very time still follow it; above it, only older ones; of the same kind,
 * (time, id) decides. Each form keeps the (contact_id, time) index usable.
 */
export function afterPosition(
  db: Db,
  kind: TimelineKind,
  time: string,
  id: string,
  before: TimelinePosition | null,
  idType: "uuid" | "bigint" = "uuid",
): postgres.PendingQuery<postgres.Row[]> {
  if (!before) return db``;
  const at = db`(timestamptz 'epoch' + ${before.micros.toString()}::bigint * interval '1 microsecond')`;
  if (kind < before.kind) return db`and ${db.unsafe(time)} <= ${at}`;
  if (kind > before.kind) return db`and ${db.unsafe(time)} < ${at}`;
  const cursorId = idType === "uuid" ? db`${before.id}::uuid` : db`${before.id}::bigint`;
  return db`and (${db.unsafe(time)}, ${db.unsafe(id)}) < (${at}, ${cursorId})`;
}

/** Timeline order: newer first; equal times by kind, then id, larger first (ASCII). */
export function compareEntries(a: TimelineEntry, b: TimelineEntry): number {
  const pa = a.position;
  const pb = b.position;
  if (pa.micros !== pb.micros) return pa.micros > pb.micros ? -1 : 1;
  if (pa.kind !== pb.kind) return pa.kind > pb.kind ? -1 : 1;
  return pa.id === pb.id ? 0 : pa.id > pb.id ? -1 : 1;
}

/**
 * An entry that is a title, its details (the empty ones left out) and an optional list: the
 * text joins them with ". ", the HTML sets the title in bold above the details and the list.
 * Every value is escaped here.
 */
export function titledHtml(
  title: string,
  facts: Fact[],
  list: string[] = [],
): { html: string; text: string } {
  const details = facts.filter((d): d is string => Boolean(d));
  return {
    text: [title, ...details, ...list].join(". "),
    html:
      `<p><strong>${escapeHtml(title)}</strong></p>` +
      (details.length ? `<p>${details.map(escapeHtml).join(" · ")}</p>` : "") +
      (list.length ? `<ul>${list.map((l) => `<li>${escapeHtml(l)}</li>`).join("")}</ul>` : ""),
  };
}
