/**
 * An audit row's before/after summary as short lines a person reads: "name: VIP → Gold" for a
 * changed value, "status: active" for a value set, "url: https://… → —" for one removed.
 * Values are what recordAudit stored (secrets "[redacted]", contact fields "[changed]").
 */
export function describeChange(
  before: Record<string, unknown> | null,
  after: Record<string, unknown> | null,
): string[] {
  const keys = [...new Set([...Object.keys(after ?? {}), ...Object.keys(before ?? {})])];
  const lines: string[] = [];
  for (const key of keys) {
    const had = before !== null && key in before;
    const has = after !== null && key in after;
    const old = had ? show(before[key]) : null;
    const now = has ? show(after[key]) : "—";
    lines.push(old === null || old === now ? `${key}: ${now}` : `${key}: ${old} → ${now}`);
  }
  return lines;
}

const MAX = 120;

function show(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > MAX ? `${text.slice(0, MAX)}…` : text;
}
