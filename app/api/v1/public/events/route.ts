import { withService } from "@/lib/db/doors";
import { authenticateApiKey, listPublicEvents } from "@/lib/events/public-api/list-public-events";

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
 * ?key= is part of the URL).
 */
export async function GET(request: Request) {
  const key = keyOf(request);
  if (!key) return refuse(401, "An API key is required: send Authorization: Bearer <key> or ?key=<key>.");
  const result = await withService(async (db) => {
    const auth = await authenticateApiKey(db, key);
    if (auth === null || auth === "revoked") return auth;
    return listPublicEvents(db, auth);
  });
  if (result === null) return refuse(401, "This API key is not valid.");
  if (result === "revoked") return refuse(403, "This API key has been revoked.");
  return Response.json(result, {
    headers: {
      ...CORS,
      "Cache-Control": "public, max-age=60, stale-while-revalidate=60",
      Vary: "Authorization",
    },
  });
}

/** CORS preflight. */
export function OPTIONS() {
  return new Response(null, { status: 204, headers: { ...CORS, "Access-Control-Max-Age": "86400" } });
}
