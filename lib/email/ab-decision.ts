import { intervalsOverlap, wilsonInterval } from "./wilson-interval";

export type AbMetric = "opens" | "clicks" | "revenue";

/** One variant's test numbers: its sends and what its recipients did within the window. */
export interface AbVariantNumbers {
  position: number;
  sent: number;
  /** sends with at least one open (click) not flagged as a machine's (lib/email/machine-engagement.ts) */
  humanOpens: number;
  humanClicks: number;
  /** recipients who paid within the window, and what they paid net of refunds */
  purchasers: number;
  revenue: number;
}

/** Fewer events than this over all variants decide nothing: the first variant is kept. */
export const AB_MIN_EVENTS = 20;

/** Variant positions as the dashboard names them: 0 is A. */
export const variantLetter = (position: number) => String.fromCharCode(65 + position);

/** The events a metric counts: unique human opens or clicks, or recipients who paid. */
export function metricEvents(v: AbVariantNumbers, metric: AbMetric): number {
  return metric === "opens" ? v.humanOpens : metric === "clicks" ? v.humanClicks : v.purchasers;
}

/** The 95% Wilson interval of a variant's rate: opens, clicks or purchasers per send. */
export function variantInterval(v: AbVariantNumbers, metric: AbMetric) {
  return wilsonInterval(metricEvents(v, metric), v.sent);
}

/** What a variant is ranked by: its rate, or for revenue what it earned per send. */
function score(v: AbVariantNumbers, metric: AbMetric): number {
  if (v.sent === 0) return 0;
  return metric === "revenue" ? v.revenue / v.sent : metricEvents(v, metric) / v.sent;
}

/**
 * The winner of an A/B test (docs/decisions.md, "A/B tests of broadcasts"): the variant with the
 * best rate of unique human opens or clicks, or the most revenue per send. The first variant (A)
 * is kept, and the note says why, when
 * - all variants together have fewer than AB_MIN_EVENTS events (too few to tell);
 * - the best is tied with another;
 * - for opens and clicks, the best's 95% interval overlaps the runner-up's (the difference
 *   could be chance). Revenue has no interval of its own: amounts are not a proportion.
 */
export function pickAbWinner(
  variants: AbVariantNumbers[],
  metric: AbMetric,
): { winner: number; note: string } {
  const what = metric === "opens" ? "human opens" : metric === "clicks" ? "human clicks" : "purchases";
  const events = variants.reduce((sum, v) => sum + metricEvents(v, metric), 0);
  const first = Math.min(...variants.map((v) => v.position));
  const keep = (why: string) => ({ winner: first, note: `Kept variant ${variantLetter(first)}: ${why}.` });
  if (events < AB_MIN_EVENTS)
    return keep(`too few events (${events} ${what} in all, at least ${AB_MIN_EVENTS} needed)`);
  const ranked = [...variants].sort((a, b) => score(b, metric) - score(a, metric) || a.position - b.position);
  const [best, next] = ranked;
  if (next && score(best, metric) === score(next, metric))
    return keep(`a tie between ${variantLetter(best.position)} and ${variantLetter(next.position)}`);
  if (
    next &&
    metric !== "revenue" &&
    intervalsOverlap(variantInterval(best, metric), variantInterval(next, metric))
  )
    return keep(
      `no clear winner (the 95% intervals of ${variantLetter(best.position)} and ${variantLetter(next.position)} overlap)`,
    );
  const rate =
    metric === "revenue"
      ? `${(score(best, metric) * 100).toFixed(0)} cents per email`
      : `${(score(best, metric) * 100).toFixed(1)}% ${what}`;
  return {
    winner: best.position,
    note: `Variant ${variantLetter(best.position)} won by ${what === "purchases" ? "revenue" : what}: ${rate}.`,
  };
}
