import { createHash } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import { withServiceStatement } from "@/lib/db/doors";
import { metrics } from "@/lib/observability/metrics";

/** An answer of the Resend SDK: data, or an error the SDK parsed from the body; the response's headers. */
export interface ProviderAnswer<T> {
  data: T | null;
  error: { name: string; message: string; statusCode: number | null } | null;
  headers?: Record<string, string> | null;
}

/** The team-wide request rate every process keeps to together (DESIGN section 9: default 2). */
export function requestsPerSecond(): number {
  const rate = Number(process.env.RESEND_REQUESTS_PER_SECOND);
  return Number.isFinite(rate) && rate > 0 ? rate : 2;
}

/** The pacer's row for a key: a digest of it, never the key (one pacer per Resend key). */
export function pacerId(apiKey: string): string {
  return `resend:${createHash("sha256").update(apiKey).digest("hex").slice(0, 16)}`;
}

/**
 * Refusals another attempt cannot change: a 4xx other than 408 (timeout), 409 (the same
 * idempotency key still in flight) and 429 (a rate or a quota, which time cures).
 */
export function isPermanentRefusal(statusCode: number | null | undefined): boolean {
  return statusCode != null && statusCode >= 400 && statusCode < 500 && ![408, 409, 429].includes(statusCode);
}

/** Resend's answer to a request past the team's rate (its quotas answer 429 under other names). */
const isRateLimited = (error: ProviderAnswer<unknown>["error"]) =>
  error?.statusCode === 429 && error.name === "rate_limit_exceeded";

/** A whole number of seconds from a header (`retry-after`, `ratelimit-reset`), or null. */
function seconds(value: string | undefined): number | null {
  if (value === undefined || !/^\d+(\.\d+)?$/.test(value.trim())) return null;
  return Number(value);
}

/**
 * One request to Resend at the team's pace (docs/decisions.md, "One pacer per Resend key"). Before
 * every attempt the caller takes a turn from the key's row in `provider_pacers`, in one statement
 * (the row lock orders the processes), and sleeps until it; turns are 1 / rate apart, where the rate
 * is RESEND_REQUESTS_PER_SECOND or the provider's own `ratelimit-limit` if lower. A 429
 * `rate_limit_exceeded` moves every process's next turn past its `retry-after` (or
 * `ratelimit-reset`) and the same request, with the same idempotency key, is made again: a rate
 * limit is never an error. Any other answer is returned: a 5xx or a lost answer goes back to the
 * job engine, whose retries with backoff make the request again under the same key (an outage
 * lasts longer than one request should wait), as do a quota and the worker stopping (`signal`).
 */
export async function paced<T>(
  apiKey: string,
  call: () => Promise<ProviderAnswer<T>>,
  signal?: AbortSignal,
): Promise<ProviderAnswer<T>> {
  const id = pacerId(apiKey);
  for (;;) {
    if (!(await waitForTurn(id, signal)))
      return { data: null, error: { name: "aborted", message: "The worker is stopping.", statusCode: null } };
    const answer = await call();
    await heed(id, answer);
    if (!isRateLimited(answer.error)) return answer;
  }
}

/**
 * Takes the next turn and sleeps until it; false when `signal` aborts first. A turn is taken
 * again when a 429 another process met moved the block past it while this one slept.
 */
async function waitForTurn(id: string, signal?: AbortSignal): Promise<boolean> {
  const rate = requestsPerSecond();
  for (;;) {
    if (signal?.aborted) return false;
    const [turn] = await withServiceStatement(
      (db) => db<{ wait_ms: number }[]>`
        insert into public.provider_pacers as p (id, next_at, turns)
        values (${id}, clock_timestamp() + make_interval(secs => 1.0 / ${rate}::float8), 1)
        on conflict (id) do update set
          next_at = greatest(p.next_at, p.blocked_until, clock_timestamp())
                    + make_interval(secs => 1.0 / least(${rate}::float8, coalesce(p.provider_limit, ${rate}::float8))),
          turns = p.turns + 1
        returning greatest(0, extract(epoch from
          next_at - make_interval(secs => 1.0 / least(${rate}::float8, coalesce(provider_limit, ${rate}::float8)))
          - clock_timestamp()) * 1000)::float8 as wait_ms`,
    );
    if (turn.wait_ms > 0) {
      try {
        await sleep(turn.wait_ms, undefined, { signal });
      } catch {
        return false;
      }
    }
    const [blocked] = await withServiceStatement(
      (db) => db<{ blocked: boolean }[]>`
        select coalesce(blocked_until > clock_timestamp(), false) as blocked
        from public.provider_pacers where id = ${id}`,
    );
    if (!blocked?.blocked) return true;
  }
}

/** The limit each pacer last stored from this process, so an unchanged header writes nothing. */
const knownLimits = new Map<string, number>();

/** Records what the answer says of the limit: a lower `ratelimit-limit`, and a 429's wait for everyone. */
async function heed(id: string, answer: ProviderAnswer<unknown>): Promise<void> {
  const headers = answer.headers ?? {};
  const limit = seconds(headers["ratelimit-limit"]);
  const limited = isRateLimited(answer.error);
  const waitSeconds = limited
    ? (seconds(headers["retry-after"]) ?? seconds(headers["ratelimit-reset"]) ?? 1)
    : null;
  if (limited) metrics().providerLimited.labels("resend").inc();
  const newLimit = limit !== null && limit > 0 && knownLimits.get(id) !== limit ? limit : null;
  if (!limited && newLimit === null) return;
  if (newLimit !== null) knownLimits.set(id, newLimit);
  await withServiceStatement(
    (db) => db`
      update public.provider_pacers set
        provider_limit = coalesce(${newLimit}::int, provider_limit),
        blocked_until = case when ${waitSeconds}::float8 is null then blocked_until
                             else greatest(blocked_until, clock_timestamp() + make_interval(secs => ${waitSeconds}::float8)) end,
        limited = limited + ${limited ? 1 : 0}
      where id = ${id}`,
  );
}
