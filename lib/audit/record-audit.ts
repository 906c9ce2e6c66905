import type { Db } from "@/lib/db/doors";
import type { AuditAction } from "./audit-actions";

export interface AuditEntry {
  workspaceId: string;
  /** the member who acted; null when an API key did (actorApiKey) */
  actorId: string | null;
  actorEmail?: string | null;
  /** the API key a v1 request was made with (docs/api.md, "Audit"): its id and name */
  actorApiKey?: { id: string; name: string } | null;
  action: AuditAction;
  targetType?: string | null;
  targetId?: string | null;
  before?: Record<string, unknown> | null;
  after?: Record<string, unknown> | null;
  ip?: string | null;
}

/** Appends one audit row in the caller's transaction (the adapters call this; see audit_log). */
export async function recordAudit(db: Db, entry: AuditEntry): Promise<void> {
  const before = entry.before ? db.json(redact(entry.before) as never) : null;
  const after = entry.after ? db.json(redact(entry.after) as never) : null;
  // a member may insert only the member columns (column grants): the key columns only for a key
  const key = entry.actorApiKey;
  await db`
    insert into public.audit_log
      (workspace_id, actor_id, actor_email, action, target_type, target_id, before, after, ip
       ${key ? db`, actor_api_key_id, actor_api_key_name` : db``})
    values (${entry.workspaceId}, ${entry.actorId}, ${entry.actorEmail ?? null}, ${entry.action},
      ${entry.targetType ?? null}, ${entry.targetId ?? null}, ${before}, ${after}, ${entry.ip ?? null}
      ${key ? db`, ${key.id}, ${key.name}` : db``})`;
}

const SECRET_KEY = /pass(word)?|secret|token|^key$|api_?key$|authorization|card/i;
const PERSONAL_KEY = /^(email|first_?name|last_?name|phone|address|name_on)|text$|^notes?$/i;

/**
 * What an audit summary may hold: never a secret, never a contact's personal data (an erasure
 * must not have to rewrite an append-only log): such values become "[changed]".
 */
export function redact(summary: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(summary)) {
    if (value === undefined) continue;
    if (SECRET_KEY.test(key)) out[key] = "[redacted]";
    else if (PERSONAL_KEY.test(key)) out[key] = "[changed]";
    else if (value instanceof File || value instanceof Blob) out[key] = "[file]";
    else if (typeof value === "string") out[key] = value.length > 200 ? `${value.slice(0, 200)}…` : value;
    else out[key] = value;
  }
  return out;
}

/**
 * recordAudit for a flow outside the adapters (the actor is in no workspace of the change yet,
 * or a provider call had to come before the transaction): the actor from their claims.
 */
export function recordFlowAudit(
  db: Db,
  actor: { sub: string; email?: string | null },
  action: AuditAction,
  entry: {
    workspaceId: string;
    target: [type: string, id: string];
    after: Record<string, unknown>;
    ip: string | null;
  },
): Promise<void> {
  const [targetType, targetId] = entry.target;
  return recordAudit(db, {
    workspaceId: entry.workspaceId,
    actorId: actor.sub,
    actorEmail: actor.email ?? null,
    action,
    targetType,
    targetId,
    after: entry.after,
    ip: entry.ip,
  });
}

/**
 * Appends many audit rows in one statement (a batch of API writes): the same rows recordAudit
 * would write one by one, all with the same actor.
 */
export async function recordAudits(db: Db, entries: AuditEntry[]): Promise<void> {
  if (entries.length === 0) return;
  const rows = entries.map((e) => ({
    workspace_id: e.workspaceId,
    actor_id: e.actorId,
    actor_email: e.actorEmail ?? null,
    actor_api_key_id: e.actorApiKey?.id ?? null,
    actor_api_key_name: e.actorApiKey?.name ?? null,
    action: e.action,
    target_type: e.targetType ?? null,
    target_id: e.targetId ?? null,
    before: e.before ? redact(e.before) : null,
    after: e.after ? redact(e.after) : null,
    ip: e.ip ?? null,
  }));
  for (let i = 0; i < rows.length; i += 1000) {
    const chunk = rows.slice(i, i + 1000);
    await db`
      insert into public.audit_log
        (workspace_id, actor_id, actor_email, actor_api_key_id, actor_api_key_name, action,
         target_type, target_id, before, after, ip)
      select * from jsonb_to_recordset(${db.json(chunk as never)}) as r(
        workspace_id uuid, actor_id uuid, actor_email text, actor_api_key_id uuid, actor_api_key_name text,
        action text, target_type text, target_id text, before jsonb, after jsonb, ip inet)`;
  }
}
