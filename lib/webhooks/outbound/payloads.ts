import { z } from "zod";
import { uuidSchema } from "@/lib/ids/uuid";
import { WEBHOOK_API_VERSION, type WebhookEventType } from "./event-types";

/**
 * The versioned payloads of outbound webhooks (docs/decisions.md, "Outbound webhooks"), as the triggers of
 * …_outbound_webhooks.sql write them; the API reference's `webhooks` section is generated from
 * these, and a test checks what the triggers write against them.
 */
const timestamp = z.string().meta({ description: "ISO 8601" });
const money = z.number().meta({ description: "Amount in the currency's units, two decimals." });

const contactData = z
  .object({
    id: uuidSchema,
    email: z.string(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    phone: z.string().nullable(),
    source: z.string(),
    is_subscribed: z.boolean(),
    opt_in_source: z.string().nullable(),
    opt_in_timestamp: timestamp.nullable(),
    unsubscribed_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "WebhookContact" });

const transactionData = z
  .object({
    id: uuidSchema,
    workspace_id: uuidSchema,
    contact_id: uuidSchema.nullable(),
    product_id: uuidSchema.nullable(),
    amount_paid: money,
    amount_refunded: money,
    currency: z.string(),
    status: z.enum(["succeeded", "refunded"]),
    external_payproc_transaction_id: z.string().nullable(),
    payproc_payment_intent_id: z.string().nullable(),
    transaction_date: timestamp,
    created_at: timestamp,
  })
  .meta({ id: "WebhookTransaction" });

const membershipData = z
  .object({
    id: uuidSchema,
    workspace_id: uuidSchema,
    subscription_id: uuidSchema,
    contact_id: uuidSchema.nullable(),
    plan_id: uuidSchema,
    status: z.enum(["active", "grace", "lapsed", "cancelled"]),
    member_since: timestamp,
    expires_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "WebhookMembership" });

const paymentFailedData = z
  .object({
    contact_id: uuidSchema.nullable(),
    subscription_id: uuidSchema.nullable(),
    payproc_subscription_id: z.string(),
    payproc_invoice_id: z.string(),
    amount_due: money,
    currency: z.string(),
    attempt_count: z.number(),
    next_payment_attempt: timestamp.nullable(),
  })
  .meta({ id: "WebhookPaymentFailed" });

const registrationData = z
  .object({
    id: uuidSchema,
    workspace_id: uuidSchema,
    event_id: uuidSchema,
    contact_id: uuidSchema,
    amount_paid: money,
    status: z.enum(["registered", "cancelled"]),
    external_attendee_id: z.string().nullable(),
    external_order_id: z.string().nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "WebhookEventRegistration" });

const submissionData = z
  .object({
    id: uuidSchema.optional(),
    form_id: uuidSchema,
    contact_id: uuidSchema.nullable().optional(),
    email: z.string().optional(),
    submission_type: z.enum(["direct", "verified_email", "api_key"]).optional(),
    status: z.enum(["applied", "pending_verification"]),
    payload: z.record(z.string(), z.unknown()),
    created_at: timestamp,
  })
  .meta({ id: "WebhookFormSubmission" });

const emailEventData = (type: "delivered" | "opened" | "clicked" | "bounced") =>
  z
    .object({
      id: uuidSchema,
      email_send_id: uuidSchema,
      broadcast_id: uuidSchema.nullable(),
      contact_id: uuidSchema.nullable(),
      type: z.literal(type),
      occurred_at: timestamp,
      link_url: z.string().nullable().meta({ description: "The link followed (clicks)." }),
      is_machine: z.boolean().meta({
        description: "Made by software (a privacy proxy or link scanner), not the recipient.",
      }),
    })
    .meta({ id: `WebhookEmailEvent_${type}` });

const DATA: Record<WebhookEventType, z.ZodType> = {
  "contact.created": contactData,
  "contact.updated": contactData,
  "contact.subscribed": contactData,
  "contact.unsubscribed": contactData,
  "contact.deleted": z.object({ id: uuidSchema, email: z.string() }),
  "contact.merged": z.object({
    id: uuidSchema.meta({ description: "The contact that stays (A), now holding B's records." }),
    merged_contact_id: uuidSchema.meta({ description: "The contact merged into it (B), now deleted." }),
    merged_email: z.string().meta({ description: "B's email address." }),
  }),
  "contact.suppressed": z.object({
    contact_id: uuidSchema,
    reason: z.enum(["bounce", "complaint", "unsubscribe", "manual"]),
    created_at: timestamp,
  }),
  "form.submitted": submissionData,
  "form.verified": submissionData,
  "transaction.created": transactionData,
  "transaction.refunded": transactionData.extend({ refunded_now: money }),
  "membership.started": membershipData,
  "membership.renewed": membershipData,
  "membership.lapsed": membershipData,
  "payment.failed": paymentFailedData,
  "event_registration.created": registrationData,
  "event_registration.cancelled": registrationData,
  "rsvp.created": registrationData,
  "email.delivered": emailEventData("delivered"),
  "email.opened": emailEventData("opened"),
  "email.clicked": emailEventData("clicked"),
  "email.bounced": emailEventData("bounced"),
  "campaign.step": z.object({
    campaign_id: uuidSchema,
    version: z.number().int(),
    enrollment_id: uuidSchema,
    step_id: z.string(),
    label: z.string().nullable().meta({ description: "The step's label, if it has one." }),
    contact: z.object({
      id: uuidSchema,
      email: z.string().nullable(),
      first_name: z.string().nullable(),
      last_name: z.string().nullable(),
    }),
  }),
};

/** The envelope every event shares: type, api_version, timestamp, workspace_id and the event's data. */
export function webhookPayloadSchema(type: WebhookEventType) {
  return z
    .object({
      type: z.literal(type),
      api_version: z.literal(WEBHOOK_API_VERSION),
      timestamp,
      workspace_id: uuidSchema,
      data: DATA[type],
    })
    .meta({ id: `Webhook_${type.replace(".", "_")}` });
}
