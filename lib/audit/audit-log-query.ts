import { z } from "zod";
import { uuidSchema } from "@/lib/ids/uuid";
import { calendarDate } from "@/lib/time/calendar";
import { zonedDayRange } from "@/lib/time/format";
import { AUDIT_TARGETS, isAuditAction } from "./audit-actions";
import type { AuditLogFilter } from "./list-audit-log";

/**
 * The audit page's filters as they travel in the URL (a GET form, the export link, the "older"
 * link): `action` (one audited action, or a target's prefix such as "contact."), `actor` (a
 * member's id), `target` (a target's id), `from` and `to` (calendar days in the viewer's zone)
 * and `before` (the keyset cursor: the id of the last row of the page before). A value that does
 * not parse is dropped, as if the field were empty; the form shows it empty too.
 */
export const auditLogQuerySchema = z.object({
  action: z
    .string()
    .refine((a) => isAuditAction(a) || (a.endsWith(".") && AUDIT_TARGETS.includes(a.slice(0, -1))))
    .optional()
    .catch(undefined),
  actor: uuidSchema.optional().catch(undefined),
  target: z.string().trim().min(1).max(200).optional().catch(undefined),
  from: calendarDate("A date as YYYY-MM-DD.").optional().catch(undefined),
  to: calendarDate("A date as YYYY-MM-DD.").optional().catch(undefined),
  before: z
    .string()
    .regex(/^\d{1,18}$/)
    .optional()
    .catch(undefined),
});

export type AuditLogQuery = z.output<typeof auditLogQuerySchema>;

/** The URL's search parameters as filters (the first value of each; empty fields are absent). */
export function parseAuditLogQuery(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): AuditLogQuery {
  const entries =
    params instanceof URLSearchParams
      ? [...params.keys()].map((k) => [k, params.get(k)] as const)
      : Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const);
  return auditLogQuerySchema.parse(Object.fromEntries(entries.filter(([, v]) => v !== "" && v != null)));
}

/** The filters as a query string, without `before` unless given (links keep the filters only). */
export function auditLogQueryString(query: AuditLogQuery, before?: string | null): string {
  const { before: _cursor, ...filters } = query;
  const pairs = Object.entries({ ...filters, before: before ?? undefined }).filter(
    (pair): pair is [string, string] => typeof pair[1] === "string" && pair[1] !== "",
  );
  return new URLSearchParams(pairs).toString();
}

/** The filters for listAuditLog: the days turned into instants in the viewer's zone. */
export function auditLogFilter(
  query: AuditLogQuery,
  ctx: { workspaceId: string; timeZone: string },
): AuditLogFilter {
  const { start, end } = zonedDayRange(ctx.timeZone, query.from, query.to);
  return {
    workspaceId: ctx.workspaceId,
    action: query.action,
    actorId: query.actor,
    targetId: query.target,
    since: start,
    until: end,
    before: query.before,
  };
}
