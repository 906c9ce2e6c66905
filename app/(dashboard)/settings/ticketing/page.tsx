import type { Metadata } from "next";
import type { AppErrorCode } from "@/lib/errors/app-error";
import { ADMIN_ROLES, requireMember } from "@/lib/auth/context";
import { withUser } from "@/lib/db/doors";
import { eventbriteConfigured } from "@/lib/events/eventbrite/client";
import { getTicketingConnectionSummary } from "@/lib/events/ticketing/ticketing-connection";
import { formatDateTime } from "@/lib/time/format";
import { ConfirmAction } from "@/components/confirm-action";
import { AutoSubscribeForm, SyncForm } from "@/components/events/ticketing-controls";
import {
  connectTicketingAction,
  disconnectTicketingAction,
  setAutoSubscribeAction,
  syncTicketingAction,
} from "./actions";
import { asFormAction } from "@/lib/http/form-state";
import { QueryNotices } from "@/components/ui/query-notices";
import type { QueryPageProps } from "@/lib/http/page-param";

export const metadata: Metadata = { title: "Eventbrite" };

/**
 * The texts of `?error=<code>`, by AppError code: the OAuth callback's refusals
 * (app/api/auth/ticketing/callback) and this page's actions'.
 */
const ERRORS: Partial<Record<AppErrorCode, string>> = {
  unauthenticated: "Eventbrite access was not granted.",
  invalid: "The connection request could not be verified. Start again from this page.",
  provider_failed:
    "Eventbrite did not complete the request (the authorisation, the webhook, or its removal). Try again in a moment.",
  not_found: "No Eventbrite organisation was found for that account.",
  forbidden: "Only owners and admins can manage the Eventbrite connection.",
  unavailable:
    "Eventbrite is not configured on this server (EVENTBRITE_CLIENT_ID and EVENTBRITE_CLIENT_SECRET).",
};

export default async function TicketingSettingsPage({ searchParams }: QueryPageProps) {
  const q = await searchParams;
  const ctx = await requireMember();
  const isAdmin = ADMIN_ROLES.includes(ctx.workspace.role);
  const zone = ctx.timeZone;
  const [connection, lastSync] = await withUser(ctx.claims, (db) =>
    Promise.all([
      getTicketingConnectionSummary(db, ctx.workspace.workspaceId),
      db`select max(last_synced_at) as at from public.events where workspace_id = ${ctx.workspace.workspaceId}`,
    ]),
  );
  return (
    <>
      <h1>Eventbrite</h1>
      <QueryNotices
        query={q}
        errors={ERRORS}
        notices={{
          connected: "Connected. Your events and attendees are being imported.",
          disconnected: "Disconnected. Imported events and registrations are kept.",
        }}
      />
      {!connection ? (
        <section className="card stack">
          <p>
            Connect your Eventbrite organisation to import its events and attendees and receive new orders,
            refunds and ticket transfers as they happen.
          </p>
          {isAdmin ? (
            <form action={asFormAction(connectTicketingAction)}>
              <button type="submit">Connect Eventbrite</button>
            </form>
          ) : (
            <p className="hint">An owner or admin can connect Eventbrite.</p>
          )}
          {!eventbriteConfigured() && <p className="hint">{ERRORS.unavailable}</p>}
        </section>
      ) : (
        <section className="card stack">
          <dl className="stack">
            <div>
              <dt className="hint">Organisation</dt>
              <dd>{connection.organization_name ?? connection.organization_id}</dd>
            </div>
            <div>
              <dt className="hint">Connected</dt>
              <dd>{formatDateTime(connection.connected_at, zone)}</dd>
            </div>
            <div>
              <dt className="hint">Real-time updates</dt>
              <dd>
                {!connection.webhook_id
                  ? "No webhook"
                  : connection.webhook_secured
                    ? "Webhook registered"
                    : "Webhook without a secret: deliveries are refused. Connect again to secure it."}
              </dd>
            </div>
            <div>
              <dt className="hint">Last sync</dt>
              <dd>{lastSync[0]?.at ? formatDateTime(lastSync[0].at, zone) : "Not yet"}</dd>
            </div>
          </dl>
          {isAdmin ? (
            <>
              <h2>Attendees</h2>
              <AutoSubscribeForm
                action={setAutoSubscribeAction}
                enabled={connection.auto_subscribe_attendees}
              />
              <h2>Sync</h2>
              <SyncForm action={syncTicketingAction} />
              <h2>Disconnect</h2>
              <ConfirmAction
                label="Disconnect Eventbrite"
                title="Disconnect Eventbrite?"
                body="The webhook is removed and new orders stop arriving. Imported events and registrations stay."
                confirmLabel="Disconnect"
                action={disconnectTicketingAction}
              />
            </>
          ) : (
            <p className="hint">
              New attendees are {connection.auto_subscribe_attendees ? "" : "not "}subscribed automatically.
            </p>
          )}
        </section>
      )}
    </>
  );
}
