/**
 * A short in-process cache of public API key checks, keyed by the key's digest (never the raw
 * key). Without it every request pays a four-statement transaction before the cached list is
 * served. A revocation is honoured at once by the process that revokes (revokeApiKey forgets
 * the digest) and within TTL_MS by every other process; last_used_at stays within a minute,
 * since each reload of a key in use writes it (authenticateApiKey). Unknown keys are cached
 * too, so a flood of made-up keys costs one lookup per key, and the map is bounded.
 */
export type KeyCheck = { workspaceId: string } | "revoked" | null;

export const API_KEY_TTL_MS = 10_000;
const MAX_ENTRIES = 10_000;

// One map per process, on globalThis: Next.js bundles route handlers and server actions
// separately, and a module-level map would be one per bundle, so a revocation made by a server
// action would not reach the route's copy.
const globalForKeys = globalThis as unknown as {
  __crmApiKeyChecks?: Map<string, { check: Promise<KeyCheck>; expires: number }>;
};
const entries = (globalForKeys.__crmApiKeyChecks ??= new Map());

/** The check for a key digest; concurrent misses share one load. */
export function cachedApiKey(keyHash: string, load: () => Promise<KeyCheck>): Promise<KeyCheck> {
  const now = Date.now();
  const hit = entries.get(keyHash);
  if (hit && hit.expires > now) return hit.check;
  if (hit) entries.delete(keyHash);
  else if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const check = load();
  entries.set(keyHash, { check, expires: now + API_KEY_TTL_MS });
  check.catch(() => entries.delete(keyHash));
  return check;
}

/** After a revocation in this process, and for tests. */
export function forgetApiKey(keyHash?: string): void {
  if (keyHash) entries.delete(keyHash);
  else entries.clear();
}
