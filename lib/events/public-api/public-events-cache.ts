import { createHash } from "node:crypto";
import { ttlCache } from "@/lib/cache/ttl-cache";

/**
 * A short in-process cache of each workspace's serialised public events list. The API
 * already tells clients and CDNs to keep an answer for 60 seconds; keeping it here for 5
 * seconds more is invisible to them and spares the database and the serialisation under
 * load. Concurrent misses share one load. Each list carries a strong ETag (a digest of its
 * bytes), so a client or CDN that sends If-None-Match gets a 304 without the body.
 */

export interface PublicEventsBody {
  bytes: Uint8Array<ArrayBuffer>;
  etag: string;
}

const lists = ttlCache<PublicEventsBody>("public-events", { ttlMs: 5_000, maxEntries: 1_000 });
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
  return lists.get(workspaceId, () => load().then(encode));
}

/** For tests, and after a change that must show at once. */
export function forgetPublicEvents(workspaceId?: string): void {
  lists.forget(workspaceId);
}
