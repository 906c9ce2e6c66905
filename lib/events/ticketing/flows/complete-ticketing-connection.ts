import { recordFlowAudit } from "@/lib/audit/record-audit";
import { verifyValue } from "@/lib/auth/tokens";
import { withService } from "@/lib/db/doors";
import {
  createOrganizationWebhook,
  deleteWebhook,
  exchangeCode,
  getOrganizations,
} from "../../eventbrite/client";
import { refused, type Result } from "@/lib/errors/app-error";
import {
  isWorkspaceAdmin,
  notAdmin,
  storeTicketingConnection,
  TICKETING_OAUTH_PURPOSE,
  ticketingRedirectUri,
  ticketingWebhookUrl,
} from "../complete-ticketing-connection";
import { generateWebhookSecret, hashWebhookSecret } from "../webhook-secret";
import { log } from "@/lib/observability/log";

/**
 * Spec 4.5, OAuth connection flow: the callback. The state must be one this service signed for
 * this member in this workspace (else nothing happens at all); then the code is exchanged for
 * the token, the organisation discovered and one organisation webhook registered for
 * order.placed, order.refunded and attendee.updated, all outside any database transaction
 * (fetch first, then write: docs/decisions.md, "Provider calls outside transactions"). One short transaction
 * then checks the member's role again, stores the connection and enqueues the first import; the replaced
 * webhook, if any, is removed after the commit, and the new one when the write did not happen.
 *
 * Runs through the service door (members cannot read or write the token,
 * docs/decisions.md, "Least-privilege RLS"): the member must be an owner or admin of the workspace, and the
 * signed state binds the callback to that member and workspace. The webhook's endpoint carries a fresh random
 * secret whose SHA-256 is stored with the connection (docs/decisions.md, "The ticketing webhook").
 *
 * Refusals (the callback redirects with their code as `?error=`): a state not signed for this
 * member and workspace, or no code, `invalid`; a member who is not an owner or admin
 * `forbidden`; Eventbrite refusing the code or the webhook `provider_failed`; an account with no
 * organisation `not_found`.
 */
export async function completeTicketingConnection(input: {
  workspaceId: string;
  userId: string;
  /** the member's email, for the audit row written with the connection */
  email?: string | null;
  ip?: string | null;
  code: string;
  state: string;
}): Promise<Result<{ organizationName: string | null }>> {
  const state = await verifyValue<{ workspaceId: string; userId: string }>(
    TICKETING_OAUTH_PURPOSE,
    input.state,
  );
  if (!state || state.workspaceId !== input.workspaceId || state.userId !== input.userId || !input.code)
    return refused("invalid", "The connection request could not be verified.");
  if (!(await withService((db) => isWorkspaceAdmin(db, input.workspaceId, input.userId)))) return notAdmin();

  const token = await exchangeCode(input.code, ticketingRedirectUri()).catch(() => null);
  if (!token) return refused("provider_failed", "Eventbrite did not accept the authorisation.");
  const [organization] = await getOrganizations(token).catch(() => []);
  if (!organization) return refused("not_found", "No Eventbrite organisation was found for that account.");
  const secret = generateWebhookSecret();
  const webhook = await createOrganizationWebhook(
    token,
    String(organization.id),
    ticketingWebhookUrl(secret),
  ).catch(() => null);
  if (!webhook) return refused("provider_failed", "Eventbrite refused to register the webhook.");
  const webhookId = String(webhook.id);

  const stored = await withService(async (db) => {
    const result = await storeTicketingConnection(db, {
      workspaceId: input.workspaceId,
      userId: input.userId,
      token,
      organization: { id: String(organization.id), name: organization.name ?? null },
      webhookId,
      webhookSecretHash: hashWebhookSecret(secret),
    });
    if ("data" in result)
      await recordFlowAudit(db, { sub: input.userId, email: input.email }, "connection.ticketing_connected", {
        workspaceId: input.workspaceId,
        target: ["ticketing_connection", input.workspaceId],
        after: { organization: organization.name ?? String(organization.id) },
        ip: input.ip ?? null,
      });
    return result;
  }).catch(async (error) => {
    await deleteWebhook(token, webhookId).catch(() => {});
    throw error;
  });
  if ("error" in stored) {
    await deleteWebhook(token, webhookId).catch(() => {});
    return stored;
  }
  const previous = stored.data.previous;
  if (previous)
    await deleteWebhook(previous.accessToken, previous.webhookId).catch((error) =>
      log.error({ err: error }, "could not remove the previous Eventbrite webhook"),
    );
  return { data: { organizationName: organization.name ?? null } };
}
