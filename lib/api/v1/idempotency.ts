import { openSecret, sealSecret } from "@/lib/crypto/secret-box";
import { createHash } from "node:crypto";
import type { Db } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { IDEMPOTENCY_HOURS } from "@/lib/api-keys/idempotency-sweep";

export const IDEMPOTENCY_HEADER = "idempotency-key";

/** The request's fingerprint: SHA-256 of method, path (with query) and raw body. */
export function requestFingerprint(method: string, url: string, body: string): string {
  const { pathname, search } = new URL(url);
  return createHash("sha256").update(`${method}\n${pathname}${search}\n${body}`, "utf8").digest("hex");
}

/** The Idempotency-Key header, checked: 1 to 255 visible ASCII characters, or absent. */
export function idempotencyKey(request: Request): string | null {
  const value = request.headers.get(IDEMPOTENCY_HEADER);
  if (value === null) return null;
  const key = value.trim();
  if (!/^[\x21-\x7e]{1,255}$/.test(key))
    throw new AppError("invalid", "Idempotency-Key must be 1 to 255 visible ASCII characters.", {
      field: "Idempotency-Key",
    });
  return key;
}

export type Claim = { claimed: true } | { claimed: false; status: number; body: unknown };

/**
 * Claims the Idempotency-Key inside the request's transaction, before the handler runs: the row
 * is inserted first, so a concurrent request with the same key waits on the primary key until
 * this transaction ends. If it commits, the waiter reads its answer (a replay); if it rolls back,
 * the waiter claims the key itself. A row older than 24 hours is taken over. The same key with
 * another fingerprint is 409 `idempotency_conflict`.
 */
export async function claimIdempotencyKey(
  db: Db,
  input: { apiKeyId: string; workspaceId: string; key: string; fingerprint: string },
): Promise<Claim> {
  const [claimed] = await db`
    insert into public.api_idempotency_keys as i (api_key_id, idempotency_key, workspace_id, fingerprint)
    values (${input.apiKeyId}, ${input.key}, ${input.workspaceId}, ${input.fingerprint})
    on conflict (api_key_id, idempotency_key) do update set
      fingerprint = excluded.fingerprint, status = null, response = null, created_at = now()
    where i.created_at < now() - make_interval(hours => ${IDEMPOTENCY_HOURS})
    returning 1 as claimed`;
  if (claimed) return { claimed: true };
  const [first] = await db<{ fingerprint: string; status: number | null; response: unknown }[]>`
    select fingerprint, status, response from public.api_idempotency_keys
    where api_key_id = ${input.apiKeyId} and idempotency_key = ${input.key}`;
  if (!first || first.fingerprint !== input.fingerprint || first.status === null)
    throw new AppError("idempotency_conflict");
  return { claimed: false, status: first.status, body: opened(first.response) };
}

/**
 * A stored answer never holds a secret in clear (docs/decisions.md, "Idempotent answers keep no
 * secret in clear"): a webhook endpoint's signing secret, the one secret a v1 answer carries, is
 * kept sealed as the endpoint's own is (lib/crypto/secret-box.ts) and opened for the replay.
 */
const SEALED = "secret_sealed";

function sealed(body: unknown): unknown {
  if (!body || typeof body !== "object" || !("secret" in body) || typeof body.secret !== "string")
    return body;
  const { secret, ...rest } = body;
  return { ...rest, [SEALED]: sealSecret(secret) };
}

function opened(body: unknown): unknown {
  if (!body || typeof body !== "object" || !(SEALED in body)) return body;
  const { [SEALED]: box, ...rest } = body as Record<string, unknown>;
  return { ...rest, secret: openSecret(String(box)) };
}

/** Stores the answer of a claimed key, in the same transaction as the request's effect. */
export async function storeIdempotentAnswer(
  db: Db,
  input: { apiKeyId: string; key: string; status: number; body: unknown },
): Promise<void> {
  await db`
    update public.api_idempotency_keys
    set status = ${input.status}, response = ${input.body === undefined ? null : db.json(sealed(input.body) as never)}
    where api_key_id = ${input.apiKeyId} and idempotency_key = ${input.key}`;
}
