import type { Metadata } from "next";
import Link from "next/link";
import { requireMember } from "@/lib/auth/context";
import { withReadUser } from "@/lib/db/doors";
import { daysOf, PERIODS, periodOf, periodSchema } from "@/lib/dashboard/dashboard-period";
import { getDashboard } from "@/lib/dashboard/get-dashboard";
import { formatDateTime } from "@/lib/time/format";
import { CapacityBars } from "@/components/dashboard/capacity-bars";
import { ShareBar } from "@/components/dashboard/share-bar";
import { StackedBars } from "@/components/dashboard/stacked-bars";
import { DataTable } from "@/components/ui/data-table";

export const metadata: Metadata = { title: "Home" };

const SOURCE_LABELS: Record<string, string> = {
  manual: "Manual",
  form: "Form",
  import: "Import",
  ticketing: "Eventbrite",
  payproc: "Stripe",
  event: "RSVP",
};
const money = (cents: number, currency: string) =>
  new Intl.NumberFormat("en-US", { style: "currency", currency: currency.toUpperCase() }).format(cents / 100);

/**
 * The home dashboard (docs/decisions.md, "Home dashboard"): the member's current workspace over the chosen
 * period. Charts are server-rendered SVG; each has a text alternative and links to the list behind it.
 */
export default async function HomePage({ searchParams }: { searchParams: Promise<{ period?: string }> }) {
  const ctx = await requireMember();
  const period = periodOf(periodSchema.parse((await searchParams).period));
  const zone = ctx.timeZone;
  // aggregates that tolerate a little lag: the read replica when there is one (lib/db/replica.ts)
  const d = await withReadUser(ctx.claims, (db) =>
    getDashboard(db, { workspaceId: ctx.workspace.workspaceId, userId: ctx.userId, period }),
  );
  const days = daysOf(period);

  const sources = [...new Set(d.contactsBySource.map((r) => r.source))].sort();
  const bySource: Record<string, Record<string, number>> = {};
  for (const r of d.contactsBySource) (bySource[r.day] ??= {})[r.source] = r.n;
  const newContacts = d.contactsBySource.reduce((s, r) => s + r.n, 0);

  const forms = [...new Map(d.forms.map((f) => [f.form_id, f.form_name])).entries()];
  const byForm: Record<string, Record<string, number>> = {};
  for (const f of d.forms) (byForm[f.day] ??= {})[f.form_id] = f.submissions;
  const formTotals = forms.map(([id, name]) => {
    const rows = d.forms.filter((f) => f.form_id === id);
    const sum = (k: "submissions" | "staged" | "verified") => rows.reduce((s, r) => s + r[k], 0);
    return { id, name, submissions: sum("submissions"), staged: sum("staged"), verified: sum("verified") };
  });

  return (
    <>
      <div className="topbar">
        <h1>{ctx.workspace.workspaceName ?? "Home"}</h1>
        <nav aria-label="Period" className="row">
          {PERIODS.map((p) => (
            <Link
              key={p}
              href={`/?period=${p}`}
              className={p === period.days ? "button" : "button secondary"}
              aria-current={p === period.days ? "page" : undefined}
            >
              {p} days
            </Link>
          ))}
        </nav>
      </div>
      <p className="hint">
        {period.from} to {period.to} (UTC days)
      </p>
      <div className="dashboard-grid">
        <section className="card">
          <StackedBars
            id="contacts-by-source"
            title="New contacts per day, by source"
            summary={`${newContacts.toLocaleString("en-US")} new contacts in the last ${period.days} days${
              sources.length
                ? `: ${sources.map((s) => `${SOURCE_LABELS[s] ?? s} ${d.contactsBySource.filter((r) => r.source === s).reduce((a, r) => a + r.n, 0)}`).join(", ")}`
                : ""
            }.`}
            days={days}
            keys={sources.map((s) => ({
              key: s,
              label: SOURCE_LABELS[s] ?? s,
              href: `/contacts?source=${encodeURIComponent(s)}`,
            }))}
            values={bySource}
            unit="contacts"
          />
          <Link href="/contacts">All contacts →</Link>
        </section>
        <section className="card">
          <ShareBar
            id="consent-share"
            title={`Email consent today (${d.consent.total.toLocaleString("en-US")} contacts)`}
            parts={[
              {
                key: "subscribed",
                label: "Subscribed",
                value: d.consent.subscribed,
                href: "/contacts?emailStatus=subscribed",
              },
              {
                key: "not_opted_in",
                label: "Not opted in",
                value: d.consent.not_opted_in,
                href: "/contacts?emailStatus=not_opted_in",
              },
              {
                key: "unsubscribed",
                label: "Unsubscribed",
                value: d.consent.unsubscribed,
                href: "/contacts?emailStatus=unsubscribed",
              },
              {
                key: "suppressed",
                label: "Suppressed (bounce, complaint, blocked)",
                value: d.consent.suppressed,
                href: "/contacts?emailStatus=suppressed",
              },
            ]}
          />
        </section>
        <section className="card">
          <StackedBars
            id="form-submissions"
            title="Form submissions per day, by form"
            summary={
              formTotals.length
                ? formTotals
                    .map(
                      (f) =>
                        `${f.name}: ${f.submissions} stored, ${f.staged} staged for verification, ${f.verified} verified${
                          f.staged ? ` (${Math.round((f.verified / f.staged) * 100)}% conversion)` : ""
                        }`,
                    )
                    .join("; ") + "."
                : `No form submissions in the last ${period.days} days.`
            }
            days={days}
            keys={forms.map(([id, name]) => ({ key: id, label: name, href: `/forms/${id}` }))}
            values={byForm}
            unit="submissions"
          />
          {formTotals.length > 0 && (
            <div style={{ overflowX: "auto" }}>
              <DataTable
                rows={formTotals}
                columns={["Form", "Stored", "Staged", "Verified", "Conversion"]}
                caption="Form conversion"
              >
                {(f) => (
                  <tr key={f.id}>
                    <th scope="row">
                      <Link href={`/forms/${f.id}`}>{f.name}</Link>
                    </th>
                    <td>{f.submissions}</td>
                    <td>{f.staged}</td>
                    <td>{f.verified}</td>
                    <td>{f.staged ? `${Math.round((f.verified / f.staged) * 100)}%` : "—"}</td>
                  </tr>
                )}
              </DataTable>
            </div>
          )}
        </section>
        <section className="card" aria-labelledby="money-heading">
          <h2 id="money-heading" className="chart-title" style={{ marginTop: 0 }}>
            Purchases in the last {period.days} days
          </h2>
          <ul className="kpis">
            {d.money.length === 0 && <li>No purchases.</li>}
            {d.money.map((m) => (
              <li key={m.currency}>
                <Link href="/payments">
                  <span className="kpi-value">{money(m.revenue_cents, m.currency)}</span>
                </Link>
                revenue ({m.purchases} purchases)
                <span className="hint"> · {money(m.refunded_cents, m.currency)} refunded</span>
              </li>
            ))}
            <li>
              <Link href="/tasks">
                <span className="kpi-value">{d.openReviewTasks}</span>
              </Link>
              open refund review {d.openReviewTasks === 1 ? "task" : "tasks"}
            </li>
          </ul>
        </section>
        <section className="card" aria-labelledby="events-heading">
          <h2 id="events-heading" className="chart-title" style={{ marginTop: 0 }}>
            Upcoming events
          </h2>
          <CapacityBars events={d.events} />
          <Link href="/events?upcoming=true">All upcoming events →</Link>
        </section>
        <section className="card" aria-labelledby="notifications-heading">
          <h2 id="notifications-heading" className="chart-title" style={{ marginTop: 0 }}>
            Recent notifications
          </h2>
          {d.notifications.length === 0 ? (
            <p className="empty">Nothing new.</p>
          ) : (
            <ul className="stack" style={{ listStyle: "none", padding: 0 }}>
              {d.notifications.map((n) => (
                <li key={n.id}>
                  {n.action_url ? <Link href={n.action_url}>{n.title}</Link> : n.title}{" "}
                  <span className="hint">{formatDateTime(n.created_at, zone)}</span>
                </li>
              ))}
            </ul>
          )}
          <Link href="/notifications">All notifications →</Link>
        </section>
      </div>
    </>
  );
}
