import { z } from "zod";

export const PERIODS = [7, 30, 90] as const;
export type PeriodDays = (typeof PERIODS)[number];

export interface Period {
  days: PeriodDays;
  /** first UTC day shown, YYYY-MM-DD */
  from: string;
  /** last UTC day shown (today), YYYY-MM-DD */
  to: string;
}

export const periodSchema = z.coerce
  .number()
  .pipe(z.union(PERIODS.map((p) => z.literal(p)) as [z.ZodLiteral<7>, z.ZodLiteral<30>, z.ZodLiteral<90>]))
  .catch(30);

const ymd = (d: Date) => d.toISOString().slice(0, 10);

/** The last `days` UTC days up to and including today's. */
export function periodOf(days: PeriodDays, now = new Date()): Period {
  const from = new Date(now.getTime() - (days - 1) * 86_400_000);
  return { days, from: ymd(from), to: ymd(now) };
}

/** Every day of the period, in order. */
export function daysOf(period: Period): string[] {
  const out: string[] = [];
  for (let t = Date.parse(`${period.from}T00:00:00Z`); ymd(new Date(t)) <= period.to; t += 86_400_000)
    out.push(ymd(new Date(t)));
  return out;
}
