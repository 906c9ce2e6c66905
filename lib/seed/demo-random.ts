/** A small seeded generator, so the demo is the same on every first start. */
export function demoRandom(seed = 16) {
  let s = seed >>> 0;
  const next = () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
    chance: (p: number) => next() < p,
  };
}
export type DemoRandom = ReturnType<typeof demoRandom>;

export const DAY_MS = 86_400_000;
export const daysAgo = (days: number, now = Date.now()) => new Date(now - days * DAY_MS);
