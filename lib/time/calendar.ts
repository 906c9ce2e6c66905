import { z } from "zod";

/**
 * Calendar values a client sends that reach a SQL cast (docs/decisions.md, "Forged input stops
 * at the edge"): checked here against what Postgres reads, so an impossible one is a 400 with its
 * field, never a cast error. Years are 0001-9999: Postgres has no year 0 ('0000-01-01' is out of
 * range) and four digits are all a form or an ISO date holds.
 */
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isDay(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(2000, month, 0)).getUTCDate() - (month === 2 && !isLeap(year) ? 1 : 0);
}

const isLeap = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** A calendar day 'YYYY-MM-DD' Postgres reads as a `date`. */
export function isCalendarDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && isDay(Number(m[1]), Number(m[2]), Number(m[3]));
}

/** A calendar day 'YYYY-MM-DD' (zod), refused with `message` unless Postgres reads it as a `date`. */
export const calendarDate = (message: string) =>
  z.iso.date({ error: message }).refine(isCalendarDate, { error: message });

/**
 * A timestamp as Postgres writes a `timestamptz` as text ('2026-11-28 22:45:14.123456+00', or the
 * ISO form with 'T' and 'Z'), or ±infinity, with every field in range.
 */
const TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.\d{1,6})?(?:Z|[+-](\d{2})(?::?(\d{2})(?::?(\d{2}))?)?)$/;

export function isTimestampText(value: string): boolean {
  if (value === "infinity" || value === "-infinity") return true;
  const m = TIMESTAMP.exec(value);
  if (!m) return false;
  const [, y, mo, d, h, mi, s, oh = "0", om = "0", os = "0"] = m;
  return (
    isDay(Number(y), Number(mo), Number(d)) &&
    Number(h) < 24 &&
    Number(mi) < 60 &&
    Number(s) < 60 &&
    Number(oh) <= 15 &&
    Number(om) < 60 &&
    Number(os) < 60
  );
}

/**
 * Whole microseconds since the epoch as a keyset carries them (text of a bigint): at most 17
 * digits either way, about 3,000 years from 1970, inside every Postgres timestamp.
 */
export const isEpochMicros = (value: unknown): value is string =>
  typeof value === "string" && /^-?\d{1,17}$/.test(value);
