import { publicRoute } from "@/lib/adapters/public-route";
import { hashApiKey } from "@/lib/api-keys/hash-api-key";
import { withReadService, withService } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { cachedApiKey } from "@/lib/events/public-api/api-key-cache";
import { cachedPublicEvents } from "@/lib/events/public-api/public-events-cache";
import { clientIp } from "@/lib/http/client-ip";
import type { AnyApiOperation } from "./define";
import { checkPublicKey } from "./key-auth";

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

/** Spec 4.14's refusals: `{ "error": "<text>" }`, not the v1 error body (define.ts, `access`). */
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
 * The public door (spec 4.14, 5.2) of an operation with `access: "public"`: the key as a Bearer
 * token or ?key=; 401 without a known key, 403 with a revoked one or one without the operation's
 * scope. Any origin may read it (the key is the credential); shared caches may keep it for a
 * minute, per key (Vary: Authorization, and ?key= is part of the URL), and an unchanged list is a
 * 304 for If-None-Match. This server keeps each key's check for 10 seconds and each workspace's
 * list for 5 (decisions.md). The key is checked on the primary (a revoked key is refused at once);
 * the handler reads on the read replica when there is one (lib/db/replica.ts), which a 5-second
 * cache already tolerates. No rate limit and no audit: a read any website embeds.
 */
export function publicApiRoute(operation: AnyApiOperation) {
  return publicRoute({ name: `api v1 ${operation.operationId}` }, async (request) => {
    const key = keyOf(request);
    if (!key) return refuse(401, "An API key is required: send Authorization: Bearer <key> or ?key=<key>.");
    const keyHash = hashApiKey(key);
    const auth = await cachedApiKey(keyHash, () =>
      withService((db) => checkPublicKey(db, keyHash, operation.scope)),
    );
    if (auth === null) return refuse(401, "This API key is not valid.");
    if (auth === "revoked") return refuse(403, "This API key has been revoked.");
    const body = await cachedPublicEvents(auth.workspaceId, () =>
      withReadService(async (db) => {
        const reply = await operation.handler({
          db,
          key: { id: auth.id, name: auth.name, workspaceId: auth.workspaceId, scopes: [operation.scope] },
          workspaceId: auth.workspaceId,
          body: undefined,
          query: {},
          params: {},
          request,
          ip: clientIp(request.headers),
          audit: async () => {
            throw new AppError("internal", "A public read writes no audit row.");
          },
        });
        return reply.body;
      }),
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
}

/** The CORS preflight of a public operation's path: any origin, Authorization allowed. */
export const preflight = async () => new Response(null, { status: 204, headers: PREFLIGHT });
