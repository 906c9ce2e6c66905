/**
 * The Wilson score interval of a proportion (E. B. Wilson, 1927): `successes` out of `trials`, at
 * 95% confidence by default (z = 1.959964). Unlike the normal approximation it stays inside [0, 1]
 * and is sensible for small counts and for rates near 0 or 1, which a test share's open and click
 * rates often are. No trials: the whole range [0, 1], since nothing is known.
 */
export function wilsonInterval(
  successes: number,
  trials: number,
  z = 1.959964,
): { rate: number; low: number; high: number } {
  if (!Number.isFinite(trials) || trials <= 0) return { rate: 0, low: 0, high: 1 };
  const k = Math.min(Math.max(successes, 0), trials);
  const p = k / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  // at k = 0 or k = n the bound is exactly 0 or 1; floating point may miss it by an ulp
  return {
    rate: p,
    low: k === 0 ? 0 : Math.max(0, centre - half),
    high: k === trials ? 1 : Math.min(1, centre + half),
  };
}

/** Whether two intervals share any point (the difference between them is not shown at this confidence). */
export function intervalsOverlap(
  a: { low: number; high: number },
  b: { low: number; high: number },
): boolean {
  return a.low <= b.high && b.low <= a.high;
}
