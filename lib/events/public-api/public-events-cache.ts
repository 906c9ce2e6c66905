import { createHash } from "node:crypto";

/**
 * A short in-process cache of each workspace's serialised public events list. The API
 * already tells clients and CDNs to keep an answer for 60 seconds; keeping it here for 5
 * seconds more is invisible to them and spares the database and the serialisation under
 * load. Concurrent misses share one load. Each list carries a strong ETag (a digest of its
 * bytes), so a client or CDN that sends If-None-Match gets a 304 without the body.
 */

const TTL_MS = 5_000;
const MAX_ENTRIES = 1_000;

export interface PublicEventsBody {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

const entries = new Map<string, { body: Promise<PublicEventsBody>; expires: number }>();
const encoder = new TextEncoder();

function encode(data: unknown): PublicEventsBody {
  const bytes = encoder.encode(JSON.stringify(data));
  return { bytes, etag: `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"` };
}

/** The workspace's list as UTF-8 JSON bytes and their ETag, encoded once per load. */
export function cachedPublicEvents(
  workspaceId: string,
  load: () => Promise<unknown>,
): Promise<PublicEventsBody> {
  const now = Date.now();
  const hit = entries.get(workspaceId);
  if (hit && hit.expires > now) return hit.body;
  if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  const body = load().then(encode);
  entries.set(workspaceId, { body, expires: now + TTL_MS });
  body.catch(() => entries.delete(workspaceId));
  return body;
}

/** For tests, and after a change that must show at once. */
export function forgetPublicEvents(workspaceId?: string): void {
  if (workspaceId) entries.delete(workspaceId);
  else entries.clear();
}
