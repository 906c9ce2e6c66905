import { hashApiKey } from "@/lib/api-keys/hash-api-key";
import { withServiceStatement, type Db } from "@/lib/db/doors";
import type { KeyCheck } from "@/lib/events/public-api/api-key-cache";
import { AppError } from "@/lib/errors/app-error";
import type { ApiScope } from "./scopes";

/** The key a v1 request was made with: its workspace, scopes, and the name the audit log shows. */
export interface ApiKeyActor {
  id: string;
  name: string;
  workspaceId: string;
  scopes: readonly ApiScope[];
}

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** seconds until the window ends and the count starts again */
  reset: number;
}

/**
 * Units per key per window: API_RATE_LIMIT (default 600) per API_RATE_WINDOW_SECONDS (default 60). A
 * request is one unit; a request that carries many items counts them (docs/api.md, "Rate limit";
 * docs/decisions.md, "The rate limit counts items").
 */
export function apiRateLimit(): { limit: number; windowSeconds: number } {
  const limit = Number(process.env.API_RATE_LIMIT);
  const windowSeconds = Number(process.env.API_RATE_WINDOW_SECONDS);
  return {
    limit: Number.isInteger(limit) && limit > 0 ? limit : 600,
    windowSeconds: Number.isInteger(windowSeconds) && windowSeconds > 0 ? windowSeconds : 60,
  };
}

/** How often last_used_at/last_used_ip are written for a key used from the same address. */
const TOUCH_SECONDS = 60;

/** `Authorization: Bearer <key>` (the scheme in any case); anything else is no key. */
export function bearerKey(request: Request): string | null {
  return request.headers.get("authorization")?.match(/^Bearer[ \t]+(\S+)[ \t]*$/i)?.[1] ?? null;
}

/**
 * docs/api.md, keys: the Bearer key's digest looked up in api_keys; unknown, revoked or
 * expired is 401 `unauthorized` (all three alike). For a usable key the same statement, in a
 * transaction of its own (one round trip), records the use (last_used_at and address, at most
 * once a minute per address) and counts the request in the key's fixed rate-limit window, so
 * a refused request is still counted and the count never waits on a request's transaction.
 */
export async function authenticateKey(
  request: Request,
  ip: string | null,
): Promise<{ key: ApiKeyActor; rate: RateLimitState; allowed: boolean }> {
  const raw = bearerKey(request);
  if (!raw || raw.length > 512)
    throw new AppError("unauthenticated", "Send a valid API key as Authorization: Bearer <key>.");
  const { limit, windowSeconds } = apiRateLimit();
  const [row] = await withServiceStatement(
    (db) => db<
      {
        id: string;
        name: string;
        workspace_id: string;
        scopes: ApiScope[];
        usable: boolean;
        hits: number | null;
        reset: number | null;
      }[]
    >`
      with k as (
        select id, name, workspace_id, scopes,
               revoked_at is null and (expires_at is null or expires_at > now()) as usable
        from public.api_keys where key_hash = ${hashApiKey(raw)}
      ), touched as (
        update public.api_keys a set last_used_at = now(), last_used_ip = ${ip}
        from k
        where a.id = k.id and k.usable
          and (a.last_used_at is null or a.last_used_at < now() - make_interval(secs => ${TOUCH_SECONDS})
               or a.last_used_ip is distinct from ${ip})
        returning a.id
      ), counted as (
        insert into public.api_rate_limits as r (api_key_id, window_start, hits)
        select k.id, to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds}), 1
        from k where k.usable
        on conflict (api_key_id) do update set
          hits = case when r.window_start = excluded.window_start then r.hits + 1 else 1 end,
          window_start = excluded.window_start
        returning r.hits, r.window_start
      )
      select k.id, k.name, k.workspace_id, k.scopes, k.usable, c.hits,
             ceil(extract(epoch from (c.window_start + make_interval(secs => ${windowSeconds}) - now())))::int as reset
      from k left join counted c on true`,
  );
  if (!row?.usable) throw new AppError("unauthenticated", "This API key is not valid.");
  const hits = row.hits ?? 1;
  return {
    key: { id: row.id, name: row.name, workspaceId: row.workspace_id, scopes: row.scopes },
    rate: { limit, remaining: Math.max(0, limit - hits), reset: Math.max(1, row.reset ?? windowSeconds) },
    allowed: hits <= limit,
  };
}

/**
 * Counts `units` more against the key's window, for a request whose body turned out to carry more
 * than its arrival counted (a batch: docs/decisions.md, "The rate limit counts items"), in one
 * statement of its own like the arrival's. Past the limit the request is refused before it runs.
 */
export async function chargeKey(
  keyId: string,
  units: number,
): Promise<{ rate: RateLimitState; allowed: boolean }> {
  const { limit, windowSeconds } = apiRateLimit();
  const [row] = await withServiceStatement(
    (db) => db<{ hits: number; reset: number }[]>`
      insert into public.api_rate_limits as r (api_key_id, window_start, hits)
      values (${keyId}, to_timestamp(floor(extract(epoch from now()) / ${windowSeconds}) * ${windowSeconds}), ${units})
      on conflict (api_key_id) do update set
        hits = case when r.window_start = excluded.window_start then r.hits + excluded.hits else excluded.hits end,
        window_start = excluded.window_start
      returning r.hits,
        ceil(extract(epoch from (r.window_start + make_interval(secs => ${windowSeconds}) - now())))::int as reset`,
  );
  return {
    rate: { limit, remaining: Math.max(0, limit - row.hits), reset: Math.max(1, row.reset ?? windowSeconds) },
    allowed: row.hits <= limit,
  };
}

/**
 * The key of a public operation's request (spec 5.2; lib/api/v1/public-route.ts), by its digest
 * (hashApiKey): null when unknown or expired (401), 'revoked' (403; also a key without the
 * operation's scope, docs/api.md), or the key and its workspace. last_used_at is written at most
 * once a minute per key, in the same statement, so the read path stays cheap.
 */
export async function checkPublicKey(db: Db, keyHash: string, scope: ApiScope): Promise<KeyCheck> {
  const [row] = await db`
    with k as (
      select id, name, workspace_id, revoked_at, last_used_at,
             ${scope} = any(scopes) as can_read,
             expires_at is not null and expires_at <= now() as expired
      from public.api_keys where key_hash = ${keyHash}
    ), touch as (
      update public.api_keys a set last_used_at = now() from k
      where a.id = k.id and k.revoked_at is null and not k.expired
        and (k.last_used_at is null or k.last_used_at < now() - interval '1 minute')
      returning a.id
    )
    select id, name, workspace_id, revoked_at is not null as revoked, can_read, expired from k`;
  // an expired key is no key (docs/api.md); one without the scope may not read this list
  if (!row || row.expired) return null;
  return row.revoked || !row.can_read
    ? "revoked"
    : { id: row.id, name: row.name, workspaceId: row.workspace_id };
}
