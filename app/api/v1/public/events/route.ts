import { withService } from "@/lib/db/doors";
import { authenticateApiKey, listPublicEvents } from "@/lib/events/public-api/list-public-events";
import { cachedPublicEvents } from "@/lib/events/public-api/public-events-cache";

const CORS = {
  "Access-Control-Allow-Origin": "*",
  "Access-Control-Allow-Methods": "GET, OPTIONS",
  "Access-Control-Allow-Headers": "Authorization, Content-Type",
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

/**
 * GET /api/v1/public/events (spec 4.14, 5.2): the key as a Bearer token or ?key=; 401
 * without a known key, 403 with a revoked one. Any origin may read it (the key is the
 * credential); shared caches may keep it for a minute, per key (Vary: Authorization, and
 * ?key= is part of the URL), and this server keeps each workspace's list for 5 seconds.
 */
export async function GET(request: Request) {
  const key = keyOf(request);
  if (!key) return refuse(401, "An API key is required: send Authorization: Bearer <key> or ?key=<key>.");
  const auth = await withService((db) => authenticateApiKey(db, key));
  if (auth === null) return refuse(401, "This API key is not valid.");
  if (auth === "revoked") return refuse(403, "This API key has been revoked.");
  const body = await cachedPublicEvents(auth.workspaceId, () =>
    withService((db) => listPublicEvents(db, auth)),
  );
  return new Response(body, {
    headers: {
      ...CORS,
      "Content-Type": "application/json",
      "Cache-Control": "public, max-age=60, stale-while-revalidate=60",
      Vary: "Authorization",
    },
  });
}

/** CORS preflight. */
export function OPTIONS() {
  return new Response(null, { status: 204, headers: { ...CORS, "Access-Control-Max-Age": "86400" } });
}
