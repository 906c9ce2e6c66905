import type { Sql } from "@/lib/db/client";
import {
  CONSENT_STATES,
  ENGAGEMENT_EVENTS,
  SUPPRESSION_REASONS,
  type Condition,
  type Node,
  type SegmentFilter,
  type Window,
} from "@/lib/segments/filter";
import { EMAIL_STATUSES } from "@/lib/contacts/get-contacts-params";
import { searchTokens } from "@/lib/contacts/get-contacts-params";

/**
 * Random contacts with every kind of related row, kept in memory as well, and the segment filter
 * evaluated on them in TypeScript by brute force: the oracle the compiled SQL is held to.
 */

const DAY = 86_400_000;
type Reason = (typeof SUPPRESSION_REASONS)[number];
type Engagement = (typeof ENGAGEMENT_EVENTS)[number];

export interface OracleContact {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  phone: string;
  source: string;
  created_at: Date;
  is_subscribed: boolean;
  unsubscribed_at: Date | null;
  tags: Set<string>;
  suppressions: Set<Reason>;
  forms: { formId: string; at: Date }[];
  registrations: { eventId: string; status: string; checkedIn: boolean }[];
  purchases: { productId: string | null; amount: number; at: Date; status: string }[];
  sends: { broadcastId: string | null; first: Partial<Record<Engagement, Date>> }[];
  custom: { points?: number; tier?: string };
}

export interface Pools {
  tags: string[];
  forms: string[];
  events: string[];
  products: string[];
  broadcasts: string[];
}

/** A small deterministic generator (mulberry32), so a failing seed can be replayed. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(list: readonly T[]): T => list[int(list.length)];
  const chance = (p: number) => next() < p;
  return { next, int, pick, chance };
}
export type Rng = ReturnType<typeof rng>;

const NAMES = ["Ann", "Bob", "Cara", "Dan", "Eve"];
const SOURCES = ["manual", "form", "import", "ticketing", "payproc", "event"];
/** Half a day off the day grid, so no timestamp sits on a window's edge. */
const daysAgo = (days: number) => new Date(Date.now() - (days + 0.5) * DAY);

/** Inserts `count` random contacts and their rows in the workspace; returns them as the oracle sees them. */
export async function seedContacts(
  sql: Sql,
  r: Rng,
  workspaceId: string,
  pools: Pools,
  count: number,
  withCustomFields = false,
) {
  const out: OracleContact[] = [];
  // attendance draws from a generator of its own, so the other draws (and the seeds the tests
  // rely on) stay as they were before check-ins existed
  const attendance = rng(count * 7919 + pools.events.length);
  for (let i = 0; i < count; i++) {
    const first = r.pick(NAMES);
    const subscribed = r.chance(0.6);
    const row = {
      workspace_id: workspaceId,
      email: `${first.toLowerCase()}.${i}.${workspaceId.slice(0, 4)}@example.test`,
      first_name: first,
      last_name: r.pick(["Smith", "Jones", "Lee"]),
      phone: `555${String(r.int(10_000)).padStart(4, "0")}`,
      source: r.pick(SOURCES),
      created_at: daysAgo(r.int(200)),
      is_subscribed: subscribed,
      unsubscribed_at: r.chance(0.2) ? daysAgo(r.int(50)) : null,
      // the workspace's definitions (the test's): points a number, tier a select of gold or silver
      custom_fields: withCustomFields
        ? {
            ...(r.chance(0.6) ? { points: r.int(100) } : {}),
            ...(r.chance(0.6) ? { tier: r.pick(["gold", "silver"]) } : {}),
          }
        : {},
    };
    const [{ id }] =
      await sql`insert into public.contacts ${sql({ ...row, custom_fields: sql.json(row.custom_fields) })} returning id`;
    const { custom_fields: custom, ...fields } = row;
    const c: OracleContact = {
      id,
      ...fields,
      custom,
      tags: new Set(pools.tags.filter(() => r.chance(0.35))),
      suppressions: new Set(SUPPRESSION_REASONS.filter(() => r.chance(0.12))),
      forms: Array.from({ length: r.int(3) }, () => ({
        formId: r.pick(pools.forms),
        at: daysAgo(r.int(200)),
      })),
      registrations: Array.from({ length: r.int(3) }, () => ({
        eventId: r.pick(pools.events),
        status: r.chance(0.7) ? "registered" : "cancelled",
        checkedIn: attendance.chance(0.4),
      })),
      purchases: Array.from({ length: r.int(4) }, () => ({
        productId: r.chance(0.85) ? r.pick(pools.products) : null,
        amount: r.int(20_000) / 100,
        at: daysAgo(r.int(200)),
        status: r.chance(0.8) ? "succeeded" : "refunded",
      })),
      sends: [],
    };
    for (const tagId of c.tags)
      await sql`insert into public.contact_tags (contact_id, tag_id) values (${id}, ${tagId})`;
    for (const reason of c.suppressions)
      await sql`insert into public.contact_suppressions (contact_id, reason) values (${id}, ${reason})`;
    for (const f of c.forms)
      await sql`insert into public.form_submissions (workspace_id, form_id, contact_id, payload, created_at)
                values (${workspaceId}, ${f.formId}, ${id}, '{}', ${f.at})`;
    // one registration per event and contact (the RSVP key): the later draw wins
    const regs = new Map(c.registrations.map((x) => [x.eventId, x]));
    c.registrations = [...regs.values()];
    for (const x of c.registrations)
      await sql`insert into public.event_registrations (workspace_id, event_id, contact_id, status, checked_in_at)
                values (${workspaceId}, ${x.eventId}, ${id}, ${x.status}, ${x.checkedIn ? daysAgo(attendance.int(30)) : null})`;
    for (const p of c.purchases)
      await sql`insert into public.transactions (workspace_id, contact_id, product_id, amount_paid, status,
                  amount_refunded, transaction_date)
                values (${workspaceId}, ${id}, ${p.productId}, ${p.amount}, ${p.status},
                        ${p.status === "refunded" ? p.amount : 0}, ${p.at})`;
    for (let s = r.int(3); s > 0; s--) c.sends.push(await seedSend(sql, r, workspaceId, pools, c));
    out.push(c);
  }
  // what the database kept (its triggers have the last word on consent columns)
  const kept = await sql`select id, source, created_at, is_subscribed, unsubscribed_at from public.contacts
                         where workspace_id = ${workspaceId}`;
  const byId = new Map(kept.map((k) => [k.id as string, k]));
  for (const c of out) Object.assign(c, { ...byId.get(c.id) });
  return out;
}

/** One email to the contact and its provider events (opens and clicks sometimes by software). */
async function seedSend(sql: Sql, r: Rng, workspaceId: string, pools: Pools, c: OracleContact) {
  const broadcastId = r.chance(0.7) ? r.pick(pools.broadcasts) : null;
  const [send] = await sql`
    insert into public.email_sends (workspace_id, contact_id, broadcast_id, to_email, kind, status)
    values (${workspaceId}, ${c.id}, ${broadcastId}, ${c.email}, 'marketing', 'sent')
    on conflict do nothing returning id`;
  const first: Partial<Record<Engagement, Date>> = {};
  if (!send) return { broadcastId, first };
  for (const type of ENGAGEMENT_EVENTS) {
    if (!r.chance(0.4)) continue;
    const at = daysAgo(r.int(120));
    const machine = (type === "opened" || type === "clicked") && r.chance(0.3);
    await sql`insert into public.email_events (workspace_id, email_send_id, broadcast_id, type, occurred_at, is_machine)
              values (${workspaceId}, ${send.id}, ${broadcastId}, ${type}, ${at}, ${machine})`;
    if (!machine) first[type] = at;
  }
  return { broadcastId, first };
}

function inWindow(at: Date, w: Window): boolean {
  if (w.withinDays !== undefined && at.getTime() < Date.now() - w.withinDays * DAY) return false;
  if (w.onOrAfter && at.getTime() < Date.parse(`${w.onOrAfter}T00:00:00Z`)) return false;
  if (w.before && at.getTime() >= Date.parse(`${w.before}T00:00:00Z`)) return false;
  return true;
}

const hard = (c: OracleContact) =>
  ["bounce", "complaint", "manual"].some((x) => c.suppressions.has(x as Reason));

/** One condition on one contact, as spec and docs/decisions.md "Segments" say, without its `not`. */
export function oracleCondition(c: OracleContact, k: Condition): boolean {
  switch (k.kind) {
    case "tag":
      return k.match === "any" ? k.tagIds.some((t) => c.tags.has(t)) : k.tagIds.every((t) => c.tags.has(t));
    case "source":
      return k.sources.includes(c.source);
    case "search": {
      const digits = c.phone.replace(/\D/g, "");
      const text = `${c.email} ${c.first_name} ${c.last_name} ${c.phone} ${digits}`.toLowerCase();
      return searchTokens(k.text).every((w) => text.includes(w));
    }
    case "email_status": {
      const status = hard(c)
        ? "suppressed"
        : c.unsubscribed_at
          ? "unsubscribed"
          : c.is_subscribed
            ? "subscribed"
            : "not_opted_in";
      return status === k.status;
    }
    case "consent":
      if (k.state === "unsubscribed") return c.unsubscribed_at !== null;
      if (k.state === "not_opted_in") return !c.is_subscribed && !c.unsubscribed_at;
      if (k.state === "subscribed") return c.is_subscribed && !c.unsubscribed_at;
      return c.is_subscribed && !c.unsubscribed_at && c.suppressions.size === 0;
    case "suppression":
      return k.reasons.length ? k.reasons.some((x) => c.suppressions.has(x)) : c.suppressions.size > 0;
    case "created":
      return inWindow(c.created_at, k.window);
    case "form_submitted":
      return c.forms.some((f) => (!k.formId || f.formId === k.formId) && inWindow(f.at, k.window));
    case "event_registered":
      return c.registrations.some(
        (x) => x.status === "registered" && (!k.eventId || x.eventId === k.eventId),
      );
    case "event_attended":
      return c.registrations.some((x) => x.checkedIn && (!k.eventId || x.eventId === k.eventId));
    // the pools' events have no times, so none has ended: nobody is a no-show there
    // (tests/integration/event-attendance.test.ts covers the condition with real times)
    case "event_no_show":
      return false;
    case "purchased":
      return c.purchases.some(
        (p) =>
          p.status === "succeeded" &&
          (!k.productId || p.productId === k.productId) &&
          (k.minAmount === undefined || p.amount >= k.minAmount) &&
          (k.maxAmount === undefined || p.amount <= k.maxAmount) &&
          inWindow(p.at, k.window),
      );
    case "custom_field": {
      const known = k.key === "points" || k.key === "tier";
      const value = known ? c.custom[k.key as "points" | "tier"] : undefined;
      if (!known) return false;
      switch (k.op) {
        case "set":
          return value !== undefined;
        case "not_set":
          return value === undefined;
        case "eq":
          return value !== undefined && value === k.value;
        case "any":
          return value !== undefined && (k.values ?? []).includes(String(value));
        case "range":
          return (
            typeof value === "number" &&
            (k.min === undefined || value >= Number(k.min)) &&
            (k.max === undefined || value <= Number(k.max))
          );
        default:
          return false;
      }
    }
    case "email_engagement":
      return c.sends.some((s) => {
        const at = s.first[k.event];
        return (
          at !== undefined && (!k.broadcastId || s.broadcastId === k.broadcastId) && inWindow(at, k.window)
        );
      });
  }
}

export function oracleMatches(c: OracleContact, node: Node): boolean {
  const raw =
    node.kind === "group"
      ? node.op === "and"
        ? node.conditions.every((x) => oracleMatches(c, x))
        : node.conditions.some((x) => oracleMatches(c, x))
      : oracleCondition(c, node);
  return node.not ? !raw : raw;
}

const isoDay = (daysBack: number) => new Date(Date.now() - daysBack * DAY).toISOString().slice(0, 10);

function randomWindow(r: Rng): Window {
  const w: Window = {};
  if (r.chance(0.4)) w.withinDays = r.pick([7, 30, 90, 180]);
  if (r.chance(0.25)) w.onOrAfter = isoDay(100 + r.int(100));
  if (r.chance(0.25)) w.before = isoDay(r.int(100));
  return w;
}

/** A random condition of the kind; ids come from both workspaces' pools (the other's must match nothing). */
export function randomCondition(r: Rng, kind: Condition["kind"], pools: Pools[]): Condition {
  const pool = <K extends keyof Pools>(key: K) => r.pick(r.pick(pools)[key]);
  const not = r.chance(0.25);
  switch (kind) {
    case "tag":
      return { kind, not, match: r.pick(["any", "all"] as const), tagIds: [pool("tags"), pool("tags")] };
    case "source":
      return { kind, not, sources: [r.pick(SOURCES), r.pick(SOURCES)] };
    case "search":
      return { kind, not, text: r.pick(["ann", "bo smith", "555", "ex", "lee", "zzz"]) };
    case "email_status":
      return { kind, not, status: r.pick(EMAIL_STATUSES) };
    case "consent":
      return { kind, not, state: r.pick(CONSENT_STATES) };
    case "suppression":
      return { kind, not, reasons: SUPPRESSION_REASONS.filter(() => r.chance(0.3)) };
    case "created":
      return { kind, not, window: randomWindow(r) };
    case "form_submitted":
      return { kind, not, formId: r.chance(0.7) ? pool("forms") : undefined, window: randomWindow(r) };
    case "event_registered":
    case "event_attended":
    case "event_no_show":
      return { kind, not, eventId: r.chance(0.7) ? pool("events") : undefined };
    case "purchased": {
      const min = r.chance(0.4) ? r.int(100) : undefined;
      const max = r.chance(0.3) ? 100 + r.int(100) : undefined;
      const productId = r.chance(0.6) ? pool("products") : undefined;
      return { kind, not, productId, minAmount: min, maxAmount: max, window: randomWindow(r) };
    }
    case "custom_field": {
      const key = r.pick(["points", "tier", "missing"]);
      const op = r.pick(["set", "not_set", "eq", key === "tier" ? "any" : "range"] as const);
      if (op === "eq")
        return { kind, not, key, op, value: key === "tier" ? r.pick(["gold", "silver"]) : r.int(100) };
      if (op === "any") return { kind, not, key, op, values: [r.pick(["gold", "silver"])] };
      if (op === "range") return { kind, not, key, op, min: r.int(50), max: 50 + r.int(50) };
      return { kind, not, key, op };
    }
    case "email_engagement":
      return {
        kind,
        not,
        event: r.pick(ENGAGEMENT_EVENTS),
        broadcastId: r.chance(0.4) ? pool("broadcasts") : undefined,
        window: randomWindow(r),
      };
  }
}

export const KINDS: Condition["kind"][] = [
  "tag",
  "source",
  "search",
  "email_status",
  "consent",
  "suppression",
  "created",
  "form_submitted",
  "event_registered",
  "event_attended",
  "purchased",
  "email_engagement",
  "custom_field",
];

/** A random tree: up to two levels of groups, AND or OR, some negated. */
export function randomFilter(r: Rng, pools: Pools[], depth = 0): SegmentFilter {
  const group = (level: number): Node => ({
    kind: "group",
    op: r.pick(["and", "or"] as const),
    not: level > 0 && r.chance(0.2),
    conditions: Array.from({ length: 1 + r.int(3) }, () =>
      level < 2 && r.chance(0.3) ? group(level + 1) : randomCondition(r, r.pick(KINDS), pools),
    ),
  });
  return { version: 1, root: group(depth) as SegmentFilter["root"] };
}
