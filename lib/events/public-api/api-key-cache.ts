import { ttlCache } from "@/lib/cache/ttl-cache";

/**
 * A short in-process cache of public API key checks, keyed by the key's digest (never the raw
 * key). Without it every request pays a four-statement transaction before the cached list is
 * served. A revocation is honoured at once by the process that revokes (revokeApiKey forgets
 * the digest) and within TTL_MS by every other process; last_used_at stays within a minute,
 * since each reload of a key in use writes it (checkPublicKey, lib/api/v1/key-auth.ts). Unknown keys are cached
 * too, so a flood of made-up keys costs one lookup per key, and the map is bounded.
 */
export type KeyCheck = { id: string; name: string; workspaceId: string } | "revoked" | null;

export const API_KEY_TTL_MS = 10_000;

const checks = ttlCache<KeyCheck>("api-key-checks", { ttlMs: API_KEY_TTL_MS, maxEntries: 10_000 });

/** The check for a key digest; concurrent misses share one load. */
export function cachedApiKey(keyHash: string, load: () => Promise<KeyCheck>): Promise<KeyCheck> {
  return checks.get(keyHash, load);
}

/** After a revocation in this process, and for tests. */
export function forgetApiKey(keyHash?: string): void {
  checks.forget(keyHash);
}
