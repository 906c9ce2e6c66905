/**
 * A short in-process cache of each workspace's serialised public events list. The API
 * already tells clients and CDNs to keep an answer for 60 seconds; keeping it here for 5
 * seconds more is invisible to them and spares the database and the serialisation under
 * load. Concurrent misses share one load. The key check is never cached: a revoked key is
 * refused at once.
 */
const TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

const entries = new Map<string, { body: Promise<Uint8Array<ArrayBuffer>>; expires: number }>();
const encoder = new TextEncoder();

/** The workspace's list as UTF-8 JSON bytes, encoded once per load. */
export function cachedPublicEvents(
  workspaceId: string,
  load: () => Promise<unknown>,
): Promise<Uint8Array<ArrayBuffer>> {
  const now = Date.now();
  const hit = entries.get(workspaceId);
  if (hit && hit.expires > now) return hit.body;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const body = load().then((data) => encoder.encode(JSON.stringify(data)));
  entries.set(workspaceId, { body, expires: now + TTL_MS });
  body.catch(() => entries.delete(workspaceId));
  return body;
}

/** For tests, and after a change that must show at once. */
export function forgetPublicEvents(workspaceId?: string): void {
  if (workspaceId) entries.delete(workspaceId);
  else entries.clear();
}
