import { z } from "zod";

/**
 * The events a workspace's endpoints can subscribe to (docs/decisions.md, "Outbound webhooks"). Each is
 * written by a trigger on the table whose change it describes (migration …_outbound_webhooks.sql), in the
 * same transaction as that change.
 */
export const WEBHOOK_EVENT_TYPES = [
  "contact.created",
  "contact.updated",
  "contact.deleted",
  "contact.merged",
  "contact.subscribed",
  "contact.unsubscribed",
  "contact.suppressed",
  "form.submitted",
  "form.verified",
  "transaction.created",
  "transaction.refunded",
  "membership.started",
  "membership.renewed",
  "membership.lapsed",
  "payment.failed",
  "event_registration.created",
  "event_registration.cancelled",
  "rsvp.created",
  "email.delivered",
  "email.opened",
  "email.clicked",
  "email.bounced",
  // a campaign's send_webhook step (docs/api.md, "Campaign steps"): written by the campaign runner in
  // the step's transaction, to the endpoints subscribed (or the one the step names)
  "campaign.step",
] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);

/** The version every payload carries as api_version; a breaking change to a payload gets a new one. */
export const WEBHOOK_API_VERSION = "2026-11-23";
