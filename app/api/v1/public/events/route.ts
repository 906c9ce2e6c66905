import { publicRoute } from "@/lib/adapters/public-route";
import { hashApiKey } from "@/lib/api-keys/hash-api-key";
import { withReadService, withService } from "@/lib/db/doors";
import { cachedApiKey } from "@/lib/events/public-api/api-key-cache";
import { authenticateApiKey, listPublicEvents } from "@/lib/events/public-api/list-public-events";
import { cachedPublicEvents } from "@/lib/events/public-api/public-events-cache";

// Any origin may read (spec 5.2); a browser script may read the ETag. The methods and headers
// a browser may send are the preflight's to say, not every answer's (docs/performance.md: each header
// costs the framework some work on every request).
const CORS = { "Access-Control-Allow-Origin": "*", "Access-Control-Expose-Headers": "ETag" };
const PREFLIGHT = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type, If-None-Match",
  "Access-Control-Max-Age": "86400",
};

function keyOf(request: Request): string | null {
  const bearer = request.headers.get("authorization")?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return bearer || new URL(request.url).searchParams.get("key") || null;
}

const refuse = (status: 401 | 403, error: string) =>
  Response.json(
    { error },
    {
      status,
      headers: {
        ...CORS,
        "Cache-Control": "no-store",
        ...(status === 401 ? { "WWW-Authenticate": 'Bearer realm="events"' } : {}),
      },
    },
  );

/** If-None-Match names this ETag (a list of tags, `*`, or a weak form of it). */
function notModified(request: Request, etag: string): boolean {
  const header = request.headers.get("if-none-match");
  if (!header) return false;
  return header.split(",").some((tag) => {
    const t = tag.trim();
    return t === "*" || t === etag || t === `W/${etag}`;
  });
}

/**
 * GET /api/v1/public/events (spec 4.14, 5.2): the key as a Bearer token or ?key=; 401
 * without a known key, 403 with a revoked one. Any origin may read it (the key is the
 * credential); shared caches may keep it for a minute, per key (Vary: Authorization, and
 * ?key= is part of the URL), and an unchanged list is a 304 for If-None-Match. This server
 * keeps each key's check for 10 seconds and each workspace's list for 5 (decisions.md). The key is
 * checked on the primary (a revoked key is refused at once); the list is read on the read replica
 * when there is one (lib/db/replica.ts), which a 5-second cache already tolerates.
 */
export const GET = publicRoute({ name: "public events" }, async (request) => {
  const key = keyOf(request);
  if (!key) return refuse(401, "An API key is required: send Authorization: Bearer <key> or ?key=<key>.");
  const keyHash = hashApiKey(key);
  const auth = await cachedApiKey(keyHash, () => withService((db) => authenticateApiKey(db, keyHash)));
  if (auth === null) return refuse(401, "This API key is not valid.");
  if (auth === "revoked") return refuse(403, "This API key has been revoked.");
  const body = await cachedPublicEvents(auth.workspaceId, () =>
    withReadService((db) => listPublicEvents(db, auth)),
  );
  const headers = {
    ...CORS,
    "Cache-Control": "public, max-age=60, stale-while-revalidate=60",
    Vary: "Authorization",
    ETag: body.etag,
  };
  if (notModified(request, body.etag)) return new Response(null, { status: 304, headers });
  return new Response(body.bytes, { headers: { ...headers, "Content-Type": "application/json" } });
});

/** CORS preflight. */
export const OPTIONS = publicRoute(
  { name: "public events preflight" },
  async () => new Response(null, { status: 204, headers: PREFLIGHT }),
);
