import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { notFoundUnlessUuid } from "@/lib/ids/not-found-unless-uuid";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/outbound/event-types";
import {
  listWebhookDeliveries,
  type WebhookDeliveryRow,
} from "@/lib/webhooks/outbound/list-webhook-deliveries";
import { listWebhookEndpoints } from "@/lib/webhooks/outbound/list-webhook-endpoints";
import { ConfirmAction } from "@/components/confirm-action";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { EndpointForm, InlineAction } from "@/components/webhooks/endpoint-form";
import {
  deleteEndpointAction,
  replayDeliveryAction,
  rotateSecretAction,
  sendTestEventAction,
  updateEndpointAction,
} from "../actions";

export const metadata: Metadata = { title: "Webhook endpoint" };

const STATUSES: WebhookDeliveryRow["status"][] = ["pending", "succeeded", "failed"];
const BADGE = { pending: "unsubscribed", succeeded: "subscribed", failed: "spam" } as const;

/** One webhook endpoint: its settings, secret rotation, a test event, and its delivery log with replay. */
export default async function WebhookEndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ endpointId: string }>;
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { endpointId } = await params;
  notFoundUnlessUuid(endpointId);
  const q = await searchParams;
  const ctx = await requireMember();
  if (!ADMIN_ROLES.includes(ctx.workspace.role)) notFound();
  const status = STATUSES.find((s) => s === q.status);
  const page = Math.max(1, Number(q.page) || 1);
  const workspaceId = ctx.workspace.workspaceId;
  const [[endpoint], deliveries] = await withUser(ctx.claims, (db) =>
    Promise.all([
      listWebhookEndpoints(db, { workspaceId, endpointId }),
      listWebhookDeliveries(db, { workspaceId, endpointId, status, page }),
    ]),
  );
  if (!endpoint) notFound();
  const zone = ctx.timeZone;
  const ids = { endpointId };
  return (
    <>
      <p>
        <Link href="/settings/webhooks">← All webhooks</Link>
      </p>
      <h1>{endpoint.url}</h1>
      {!endpoint.enabled && (
        <div role="status" className="alert error">
          This endpoint is disabled{endpoint.disabled_reason ? `: ${endpoint.disabled_reason}` : "."} Enable
          it below to receive events again.
        </div>
      )}
      <div className="row" style={{ alignItems: "flex-start", gap: "1rem", flexWrap: "wrap" }}>
        <InlineAction action={sendTestEventAction} fields={ids} label="Send test event" />
        <InlineAction action={rotateSecretAction} fields={ids} label="Rotate signing secret" />
        <ConfirmAction
          action={deleteEndpointAction}
          fields={ids}
          label="Delete endpoint"
          title="Delete this endpoint?"
          body="It stops receiving events at once, and its delivery log is deleted. This cannot be undone."
          confirmLabel="Delete endpoint"
        />
      </div>
      <h2>Settings</h2>
      <EndpointForm
        action={updateEndpointAction.bind(null, endpointId)}
        eventTypes={WEBHOOK_EVENT_TYPES}
        initial={{
          url: endpoint.url,
          description: endpoint.description,
          eventTypes: endpoint.event_types,
          enabled: endpoint.enabled,
        }}
        submitLabel="Save endpoint"
      />
      <h2>Deliveries</h2>
      <nav aria-label="Filter deliveries" className="row">
        <Link href={`/settings/webhooks/${endpointId}`} aria-current={status ? undefined : "page"}>
          All
        </Link>
        {STATUSES.map((s) => (
          <Link
            key={s}
            href={`/settings/webhooks/${endpointId}?status=${s}`}
            aria-current={status === s ? "page" : undefined}
          >
            {s[0].toUpperCase() + s.slice(1)}
          </Link>
        ))}
      </nav>
      <DataTable
        rows={deliveries}
        columns={["Event", "Status", "Attempts", "Response", "Created", "Details", ""]}
        caption="Deliveries to this endpoint, newest first"
        empty={status ? `No ${status} deliveries.` : "No deliveries yet. Send a test event to see one here."}
      >
        {(d) => (
          <tr key={d.id}>
            <td>
              <code>{d.event_type}</code>
              {d.replay_of && <div className="hint">replay</div>}
            </td>
            <td>
              <span className={`badge ${BADGE[d.status]}`}>{d.status}</span>
              {d.status === "pending" && d.attempts > 0 && (
                <div className="hint">
                  next try <DateTime value={d.next_attempt_at} timeZone={zone} />
                </div>
              )}
            </td>
            <td>{d.attempts}</td>
            <td>
              {d.last_status_code ?? (d.attempts > 0 ? "no answer" : "—")}
              {d.last_duration_ms !== null && <div className="hint">{d.last_duration_ms} ms</div>}
            </td>
            <td>
              <DateTime value={d.created_at} timeZone={zone} />
            </td>
            <td>
              <details>
                <summary>Body and answer</summary>
                <p className="hint">
                  webhook-id <code>{d.message_id}</code>
                </p>
                <pre style={{ whiteSpace: "pre-wrap", maxWidth: "40rem" }}>
                  {JSON.stringify(d.payload, null, 2)}
                </pre>
                {d.last_response_excerpt && (
                  <>
                    <p className="hint">Answer (first 2 KiB)</p>
                    <pre style={{ whiteSpace: "pre-wrap", maxWidth: "40rem" }}>{d.last_response_excerpt}</pre>
                  </>
                )}
              </details>
            </td>
            <td>
              {d.status !== "pending" && (
                <InlineAction
                  action={replayDeliveryAction}
                  fields={{ deliveryId: d.id, endpointId }}
                  label="Replay"
                />
              )}
            </td>
          </tr>
        )}
      </DataTable>
      <nav aria-label="Pages" className="row">
        {page > 1 && (
          <Link href={`?${new URLSearchParams({ ...(status ? { status } : {}), page: String(page - 1) })}`}>
            ← Newer
          </Link>
        )}
        {deliveries.length === 50 && (
          <Link href={`?${new URLSearchParams({ ...(status ? { status } : {}), page: String(page + 1) })}`}>
            Older →
          </Link>
        )}
      </nav>
    </>
  );
}
