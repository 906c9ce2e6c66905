import { memberRoute } from "@/lib/adapters/member-route";
import { auditLogFilter, parseAuditLogQuery } from "@/lib/audit/audit-log-query";
import { EXPORT_BATCH, streamAuditLogCsv } from "@/lib/audit/flows/stream-audit-log-csv";
import { listAuditLog } from "@/lib/audit/list-audit-log";
import { todayIn } from "@/lib/time/format";

/**
 * docs/decisions.md, "Audit log": the audit log with the audit page's filters, as a CSV download, owners
 * only, after a step-up. The export itself is audited (with its filters): who took a copy of the
 * log, and when.
 */
export const GET = memberRoute(
  {
    name: "audit log export",
    roles: ["owner"],
    forbidden: "Only owners can see the audit log.",
    audit: "audit.exported",
    stepUp: true,
  },
  async (db, request, _params, ctx) => {
    const query = parseAuditLogQuery(new URL(request.url).searchParams);
    const filter = auditLogFilter({ ...query, before: undefined }, ctx);
    const first = await listAuditLog(db, { ...filter, limit: EXPORT_BATCH });
    ctx.audit.target("audit_log", null).change(null, { ...query, before: undefined });
    return new Response(streamAuditLogCsv(ctx.claims, filter, first), {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="audit-log-${todayIn(ctx.timeZone)}.csv"`,
        "cache-control": "no-store",
      },
    });
  },
);
