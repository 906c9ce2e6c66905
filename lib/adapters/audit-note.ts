import type { AuditAction } from "@/lib/audit/audit-actions";
import { recordAudit } from "@/lib/audit/record-audit";
import type { MemberContext } from "@/lib/auth/context";
import type { Db } from "@/lib/db/doors";

/**
 * What an adapter's function tells the audit row about its change: the target, and a summary
 * of before and after. Without `after`, the row summarises the validated input (secrets and
 * contact fields are redacted by recordAudit either way).
 */
export class AuditNote {
  targetType: string | null = null;
  targetId: string | null = null;
  before: Record<string, unknown> | null = null;
  after: Record<string, unknown> | null = null;

  target(type: string, id: string | null | undefined): this {
    this.targetType = type;
    this.targetId = id ?? null;
    return this;
  }

  change(before: Record<string, unknown> | null, after: Record<string, unknown> | null): this {
    this.before = before;
    this.after = after;
    return this;
  }
}

/** Writes the one audit row of an adapter call, in its transaction. */
export async function writeAudit(
  db: Db,
  ctx: MemberContext & { audit: AuditNote },
  action: AuditAction,
  { input, ip }: { input: unknown; ip: string | null },
): Promise<void> {
  const note = ctx.audit;
  await recordAudit(db, {
    workspaceId: ctx.workspace.workspaceId,
    actorId: ctx.userId,
    actorEmail: ctx.claims.email ?? null,
    action,
    targetType: note.targetType ?? action.split(".")[0],
    targetId: note.targetId,
    before: note.before,
    after: note.after ?? (isRecord(input) ? input : null),
    ip,
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
