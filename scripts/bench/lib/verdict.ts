/**
 * The one-line verdict each benchmark prints against its goal (docs/performance.md): goals are ratios
 * measured side by side in one run, so they hold on a noisy or shared machine.
 */
export interface Goal {
  /** the ratio must be at least this (a rate against its floor) */
  atLeast?: number;
  /** the ratio must be at most this (a time against its floor) */
  atMost?: number;
}

export function verdict(label: string, ratio: number, goal: Goal): string {
  const met =
    (goal.atLeast === undefined || ratio >= goal.atLeast) &&
    (goal.atMost === undefined || ratio <= goal.atMost);
  const wanted = goal.atLeast !== undefined ? `>= ${goal.atLeast}` : `<= ${goal.atMost}`;
  const line = `verdict: ${label}: ${ratio.toFixed(2)}x (goal ${wanted}x) -> ${met ? "met" : "NOT met"}`;
  console.log(line);
  return line;
}
