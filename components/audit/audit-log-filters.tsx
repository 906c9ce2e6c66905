import Link from "next/link";
import { AUDIT_ACTIONS, AUDIT_TARGETS } from "@/lib/audit/audit-actions";
import type { AuditLogQuery } from "@/lib/audit/audit-log-query";
import { StepUpDownload } from "@/components/two-factor/step-up-download";

/**
 * The audit page's filters as a plain GET form (bookmarkable, works without script): the
 * action (one, or every action of a target), the member, the target's id and a range of days
 * in the viewer's zone. The export link carries the same filters.
 */
export function AuditLogFilters({
  query,
  members,
  timeZone,
  exportHref,
}: {
  query: AuditLogQuery;
  members: readonly { userId: string; email: string | null }[];
  timeZone: string;
  exportHref: string;
}) {
  return (
    <form method="get" className="card stack" role="search" aria-label="Filter the audit log">
      <div className="row">
        <label>
          Action
          <select name="action" defaultValue={query.action ?? ""}>
            <option value="">All actions</option>
            {AUDIT_TARGETS.map((target) => (
              <optgroup key={target} label={target}>
                <option value={`${target}.`}>Every {target} action</option>
                {AUDIT_ACTIONS.filter((a) => a.startsWith(`${target}.`)).map((a) => (
                  <option key={a} value={a}>
                    {a}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </label>
        <label>
          Member
          <select name="actor" defaultValue={query.actor ?? ""}>
            <option value="">Anyone</option>
            {members.map((m) => (
              <option key={m.userId} value={m.userId}>
                {m.email ?? m.userId}
              </option>
            ))}
          </select>
        </label>
        <label>
          Target id
          <input name="target" defaultValue={query.target ?? ""} placeholder="e.g. a contact's id" />
        </label>
        <label>
          From
          <input type="date" name="from" defaultValue={query.from ?? ""} />
        </label>
        <label>
          To
          <input type="date" name="to" defaultValue={query.to ?? ""} />
        </label>
      </div>
      <div className="row">
        <button type="submit" className="secondary">
          Filter
        </button>
        <Link href="/settings/audit">Clear filters</Link>
        <StepUpDownload className="button secondary" href={exportHref} filename="audit-log.csv">
          Export CSV
        </StepUpDownload>
        <span className="hint">Days are in your time zone ({timeZone}).</span>
      </div>
    </form>
  );
}
