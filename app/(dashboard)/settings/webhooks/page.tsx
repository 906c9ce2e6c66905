import type { Metadata } from "next";
import Link from "next/link";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/outbound/event-types";
import { listWebhookEndpoints } from "@/lib/webhooks/outbound/list-webhook-endpoints";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { EndpointForm } from "@/components/webhooks/endpoint-form";
import { createEndpointAction } from "./actions";
import { QueryNotices } from "@/components/ui/query-notices";
import type { QueryPageProps } from "@/lib/http/page-param";

export const metadata: Metadata = { title: "Webhooks" };

/** The workspace's webhook endpoints and a form to add one; owners and admins (docs/decisions.md, "Outbound webhooks"). */
export default async function WebhooksPage({ searchParams }: QueryPageProps) {
  const q = await searchParams;
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role))
    return (
      <>
        <h1>Webhooks</h1>
        <div className="card empty">Only owners and admins can see and manage webhooks.</div>
      </>
    );
  const endpoints = await withUser(ctx.claims, (db) =>
    listWebhookEndpoints(db, { workspaceId: ctx.workspace.workspaceId }),
  );
  return (
    <>
      <h1>Webhooks</h1>
      <p>
        Send events to your own systems as they happen: each is a JSON POST signed per{" "}
        <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> (headers <code>webhook-id</code>,{" "}
        <code>webhook-timestamp</code>, <code>webhook-signature</code>), retried with backoff for about a day.
        Verify them with the <code>standardwebhooks</code> or <code>svix</code> library and your
        endpoint&apos;s signing secret. The payloads are described in the{" "}
        <Link href="/api-reference">API reference</Link>.
      </p>
      <QueryNotices query={q} notices={{ deleted: "The endpoint was deleted." }} />
      <h2>Endpoints</h2>
      <DataTable
        rows={endpoints}
        columns={["URL", "Events", "Status", "Last 24 hours", "Added"]}
        caption="Webhook endpoints"
        empty="No endpoints yet. Add one below to start receiving events."
      >
        {(e) => (
          <tr key={e.id}>
            <td>
              <Link href={`/settings/webhooks/${e.id}`}>{e.url}</Link>
              {e.description && <div className="hint">{e.description}</div>}
            </td>
            <td>
              {e.event_types.length === 1 ? (
                <code>{e.event_types[0]}</code>
              ) : (
                `${e.event_types.length} events`
              )}
            </td>
            <td>
              {e.enabled ? (
                <span className="badge subscribed">Enabled</span>
              ) : (
                <span className="badge spam" title={e.disabled_reason ?? undefined}>
                  Disabled
                </span>
              )}
              {e.enabled && e.failing_since && (
                <div className="hint">
                  Failing since <DateTime value={e.failing_since} timeZone={ctx.timeZone} />
                </div>
              )}
            </td>
            <td>
              {e.recent.succeeded} delivered, {e.recent.failed} failed, {e.recent.pending} pending
            </td>
            <td>
              <DateTime value={e.created_at} timeZone={ctx.timeZone} dateOnly />
            </td>
          </tr>
        )}
      </DataTable>
      <h2>Add an endpoint</h2>
      <EndpointForm
        action={createEndpointAction}
        eventTypes={WEBHOOK_EVENT_TYPES}
        submitLabel="Add endpoint"
      />
    </>
  );
}
