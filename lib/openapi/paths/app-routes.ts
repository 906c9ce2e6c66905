import { z } from "zod";
import { uuidSchema } from "@/lib/ids/uuid";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { auditLogQuerySchema } from "@/lib/audit/audit-log-query";
import * as events from "@/lib/api/v1/events";
import { rsvpSchema } from "@/lib/events/rsvp/rsvp-schema";
import { scanBatchSchema } from "@/lib/events/tickets/sync-scans";
import { registrationFilterSchema } from "@/lib/events/schemas";
import { formSubmissionBodySchema } from "@/lib/forms/submission-fields";
import { portalLinkRequestSchema } from "@/lib/portal/schemas";
import { backfillIntentsQuery, backfillRefundsQuery } from "@/lib/payments/schemas";
import { error, html, json, plainError, redirect, security, uuidParam } from "../helpers";

/**
 * The routes of app/api outside /api/v1 (forms, recipients, RSVP, provider webhooks, admin, the
 * dashboard's downloads, operations), generated from the zod schemas their handlers parse with.
 */
const readiness = z
  .object({
    ready: z.boolean(),
    checks: z.record(z.string(), z.union([z.enum(["ok", "failed", "unknown"]), z.number()])),
  })
  .meta({ id: "Readiness" });

const formSubmission: ZodOpenApiOperationObject = {
  operationId: "submitForm",
  security: [{ formKey: [] }, { formKeyQuery: [] }, {}],
  tags: ["Forms"],
  summary: "Submit a lead-capture form (spec 4.2)",
  description:
    "Public. Authenticated by the page's Origin (or Referer) against the form's allowed domains, or by the form key " +
    "(`x-api-key` header or `api_key` query), which also bypasses double opt-in. At most 5 requests per 60 s per form " +
    "and client IP; bodies up to 64 KiB. Forms that require a captcha need a Turnstile or hCaptcha token unless the key is sent.",
  requestParams: {
    path: uuidParam("formId", "The form's id."),
    query: z.object({
      api_key: z.string().optional().meta({ description: "The form key (or send x-api-key)." }),
    }),
    header: z.object({ "x-api-key": z.string().optional() }),
  },
  requestBody: {
    required: true,
    content: {
      "application/json": { schema: formSubmissionBodySchema },
      "application/x-www-form-urlencoded": { schema: formSubmissionBodySchema },
    },
  },
  responses: {
    "200": {
      description:
        "Accepted: `contact_id` when applied at once; `pending_verification` when a confirmation email was sent " +
        "(double opt-in); `{success: true}` alone when the honeypot was filled (nothing stored).",
      ...json(
        z
          .object({
            success: z.literal(true),
            contact_id: uuidSchema.optional(),
            pending_verification: z.literal(true).optional(),
          })
          .meta({ id: "FormSubmissionAccepted" }),
      ),
    },
    "302": redirect("Accepted, and the form has a success redirect URL."),
    "400": error("Missing or malformed email, a field of the wrong type, or a malformed body."),
    "403": error("The origin or the form key was refused, or the captcha failed."),
    "404": error("No such form."),
    "413": error("The body is larger than 64 KiB."),
    "415": error("Not JSON or URL-encoded."),
    "429": {
      ...error("Too many submissions from this IP for this form."),
      headers: z.object({ "Retry-After": z.string().meta({ description: "Seconds to wait." }) }),
    },
  },
};

export const appRoutePaths: ZodOpenApiPathsObject = {
  "/api/forms/{formId}": {
    post: formSubmission,
    options: {
      operationId: "preflightFormSubmission",
      security: security.none,
      tags: ["Forms"],
      summary: "CORS preflight of a form submission",
      requestParams: { path: uuidParam("formId", "The form's id.") },
      responses: { "204": { description: "Allowed origins and headers." }, "404": error("No such form.") },
    },
  },
  "/api/forms/verify": {
    get: {
      operationId: "verifyFormSubmission",
      security: security.none,
      tags: ["Forms"],
      summary: "Confirm a staged submission (spec 4.3)",
      description: "The link of the double opt-in email. Single use; valid for 24 hours.",
      requestParams: { query: z.object({ token: z.string() }) },
      responses: {
        "303": redirect("Confirmed: to the form's success URL or the confirmation page."),
        "404": html("Unknown or already used link (a readable page)."),
        "410": html("Expired link (a readable page)."),
      },
    },
  },
  "/api/subscribe/{contactId}": {
    get: {
      operationId: "resubscribeFromEmail",
      security: security.none,
      tags: ["Recipients"],
      summary: "Re-subscribe from an email footer (spec 4.6)",
      requestParams: {
        path: uuidParam("contactId", "The recipient's contact id."),
        query: z.object({
          sig: z
            .string()
            .optional()
            .describe(
              "The link's signature, as the email footer carries it; needed to clear a manual block.",
            ),
        }),
      },
      responses: {
        "303": redirect(
          "To /subscribe/confirmed, or /subscribe/error?reason=… when a bounce or complaint blocks it, or a manual block without a valid signature (reason not_found).",
        ),
      },
    },
  },
  "/api/unsubscribe/{contactId}": {
    post: {
      operationId: "unsubscribeOneClick",
      security: security.none,
      tags: ["Recipients"],
      summary: "One-click unsubscribe (RFC 8058, spec 4.7)",
      description: "Mail clients POST `List-Unsubscribe=One-Click` to the List-Unsubscribe URL.",
      requestParams: { path: uuidParam("contactId", "The recipient's contact id.") },
      responses: {
        "200": { description: "Unsubscribed.", ...json(z.object({ unsubscribed: z.literal(true) })) },
        "404": plainError("Unknown contact."),
      },
    },
  },
  "/api/rsvp/{eventId}": {
    post: {
      operationId: "rsvpToEvent",
      security: security.none,
      tags: ["Events"],
      summary: "RSVP to an event (spec 4.13)",
      description:
        "Public. JSON gets JSON; an HTML form post is redirected back to the RSVP page with the outcome. Bodies up " +
        "to 64 KiB; rate limited per event and IP. The answer never contains a contact id. An event with ticket " +
        "types takes `ticket_type_id` (or the only one offered); a hidden type only with its `code` (any case, up " +
        "to its use limit). A full event (or type) whose waitlist is on answers 202 with the place in line " +
        '(DESIGN section 9, "Events"); without the waitlist, 409 `event_full` as before.',
      requestParams: { path: uuidParam("eventId", "The event's id.") },
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: rsvpSchema },
          "application/x-www-form-urlencoded": { schema: rsvpSchema },
        },
      },
      responses: {
        "200": {
          description: "Registered (or already registered).",
          ...json(
            z.object({
              success: z.literal(true),
              status: z.enum(["registered", "offered", "cancelled"]).optional().meta({
                description: "The registration's state ('offered': a waitlist seat held for a claim).",
              }),
              registration_id: uuidSchema.optional(),
              already_registered: z.boolean().optional(),
            }),
          ),
        },
        "202": {
          description:
            "The event (or the chosen type) is full and its waitlist is on: in line, number `position`.",
          ...json(
            z.object({ status: z.literal("waitlisted"), position: z.number().int().min(1) }).meta({
              example: { status: "waitlisted", position: 3 },
            }),
          ),
        },
        "303": redirect("An HTML form post: back to the RSVP page with ?status=… or ?error=…"),
        "400": error("Invalid email or field."),
        "403": error("The event is not published."),
        "404": error("No such event."),
        "409": error(
          "The event is ticketing-linked (register on Eventbrite: eventbrite_url), or full (`event_full`, waitlist off), or the ticket type is not on sale, paid, or its code used up (`ticket_unavailable`).",
        ),
        "410": error("The event has started or ended."),
        "413": error("The body is larger than 64 KiB."),
        "429": error("Too many attempts from this IP."),
      },
    },
  },
  "/api/rsvp/{eventId}/claim": {
    post: {
      operationId: "claimWaitlistOffer",
      security: security.none,
      tags: ["Events"],
      summary: "Claim a waitlist offer",
      description:
        "Public: the `token` of the offer email's link `{base_url}/rsvp/{event_id}/claim?token=…` (DESIGN section 9, " +
        "\"Events\"), valid the event's `offer_hours` (default 24). JSON gets JSON; the claim page's form post is " +
        "redirected to the RSVP page, or back to the claim page with ?error=the code.",
      requestParams: {
        path: uuidParam("eventId", "The event's id."),
        query: z.object({
          lang: z.string().optional().meta({
            description:
              "The claim page's language (es, fr, de): the page a form post is redirected to keeps it.",
          }),
        }),
      },
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: z.object({ token: z.string() }) },
          "application/x-www-form-urlencoded": { schema: z.object({ token: z.string() }) },
        },
      },
      responses: {
        "200": {
          description: "Claimed: registered, and the confirmation sent.",
          ...json(z.object({ success: z.literal(true), status: z.literal("registered") })),
        },
        "303": redirect("A form post: to /rsvp/{eventId}?status=claimed, or /rsvp/{eventId}/claim?error=…"),
        "404": error("A wrong token, or another event's (`not_found`)."),
        "409": error("Already claimed (`offer_used`)."),
        "410": error("Expired (`offer_expired`): the seat went to the next in line."),
      },
    },
  },
  "/api/portal/{workspaceId}/link": {
    post: {
      operationId: "requestPortalLink",
      security: security.none,
      tags: ["Portal"],
      summary: "Ask for a sign-in link to the contact portal",
      description:
        'Public (DESIGN section 9, "Portal and languages"; docs/decisions.md, "Portal sessions"). The same 202 ' +
        "whatever the address: a contact of the workspace with it is emailed a single-use link to " +
        "`{base_url}/portal/{workspace_id}/enter?token=…`, valid 15 minutes, in the language of `?lang=`, else the " +
        "contact's, else Accept-Language, else the workspace's. An address past 5 links an hour gets the same 202 " +
        "and no email.",
      requestParams: {
        path: uuidParam("workspaceId", "The workspace's id."),
        query: z.object({ lang: z.string().optional().meta({ description: "en, es, fr or de." }) }),
      },
      requestBody: {
        required: true,
        content: {
          "application/json": { schema: portalLinkRequestSchema },
          "application/x-www-form-urlencoded": { schema: portalLinkRequestSchema },
        },
      },
      responses: {
        "202": {
          description: "Accepted, whatever the address.",
          ...json(z.object({ success: z.literal(true) })),
        },
        "400": error("No email address in the body (`invalid`)."),
        "429": error("Too many requests from this IP."),
      },
    },
  },
  // GET is V1_OPERATIONS' listPublicEvents (lib/api/v1/events.ts); its CORS preflight is here
  [events.listPublic.path]: {
    options: {
      operationId: "preflightPublicEvents",
      security: security.none,
      tags: ["Events"],
      summary: "CORS preflight",
      responses: { "204": { description: "Any origin; Authorization allowed." } },
    },
  },
  "/api/webhooks/payproc": {
    post: {
      operationId: "receiveStripeWebhook",
      security: [{ stripeSignature: [] }],
      tags: ["Provider webhooks"],
      summary: "Stripe webhook (spec 4.4)",
      description:
        "checkout.session.completed and charge.refunded, signed with STRIPE_WEBHOOK_SECRET (`Stripe-Signature`). " +
        "Every event is kept before it is processed; a replay is acknowledged once. Bodies up to 1 MiB.",
      requestParams: { header: z.object({ "stripe-signature": z.string() }) },
      requestBody: {
        required: true,
        ...json(z.object({ id: z.string(), type: z.string() }).catchall(z.unknown())),
      },
      responses: {
        "200": {
          description: "Received (processed, ignored or a duplicate).",
          ...json(z.record(z.string(), z.unknown())),
        },
        "400": error("Bad signature or body."),
        "409": error("Another delivery of the same event is being processed: Stripe delivers it again."),
        "413": error("The body is larger than 1 MiB."),
      },
    },
  },
  "/api/webhooks/ticketing": {
    post: {
      operationId: "receiveTicketingWebhook",
      security: [{ ticketingSecret: [] }],
      tags: ["Provider webhooks"],
      summary: "Eventbrite webhook (spec 4.5)",
      description:
        "Registered by the app when a workspace connects Eventbrite, at `?secret=<secret>`. A delivery is " +
        "kept and answered 200 at once; the order or attendee is then fetched and processed in the background, with " +
        "retries. Every refusal is the same 403.",
      requestParams: { query: z.object({ secret: z.string() }) },
      requestBody: {
        required: true,
        ...json(
          z.object({
            api_url: z.string(),
            config: z.object({ action: z.string(), webhook_id: z.string(), user_id: z.string().optional() }),
          }),
        ),
      },
      responses: {
        "200": {
          description: "Kept.",
          ...json(z.object({ ok: z.literal(true), duplicate: z.boolean().optional() })),
        },
        "400": error("Not JSON."),
        "403": error("Refused (unknown webhook, wrong secret or foreign api_url: one answer for all)."),
        "413": error("The body is larger than 1 MiB."),
      },
    },
  },
  "/api/webhooks/email": {
    post: {
      operationId: "receiveEmailWebhook",
      security: [{ resendSignature: [] }],
      tags: ["Provider webhooks"],
      summary: "Resend webhook: bounces and complaints (spec 6.1)",
      description: "Signed with RESEND_WEBHOOK_SECRET (svix-id, svix-timestamp, svix-signature).",
      requestBody: { required: true, ...json(z.object({ type: z.string() }).catchall(z.unknown())) },
      responses: {
        "200": {
          description: "Received.",
          ...json(z.object({ received: z.literal(true) }).catchall(z.unknown())),
        },
        "400": error("Not JSON or no event type."),
        "401": error("Bad signature."),
        "503": error("The webhook secret is not configured."),
      },
    },
  },
  "/api/auth/ticketing/callback": {
    get: {
      operationId: "completeTicketingConnection",
      security: security.session,
      tags: ["Connections"],
      summary: "Eventbrite OAuth callback (spec 4.5)",
      description:
        "A signed-in owner or admin returns here from Eventbrite with `code` and the signed `state`.",
      requestParams: {
        query: z.object({
          code: z.string().optional(),
          state: z.string().optional(),
          error: z.string().optional(),
        }),
      },
      responses: { "303": redirect("Back to Settings → Ticketing with the outcome.") },
    },
  },
  "/api/auth/step-up": {
    post: {
      operationId: "stepUp",
      security: security.session,
      tags: ["Dashboard"],
      summary: "Step-up: prove it is you again before a dangerous action",
      description:
        "Same-origin, signed in. The password, or with two-factor on a current TOTP or recovery code; the session then counts as fresh for 10 minutes (privacy export and erasure, API keys, roles, webhook endpoints).",
      requestBody: { content: { "application/json": { schema: z.object({ secret: z.string().max(200) }) } } },
      responses: {
        "200": {
          description: "The session is fresh again.",
          ...json(z.object({ success: z.literal(true) })),
        },
        "400": error("The password or code is not right (audited)."),
        "401": error("Not signed in."),
        "403": error("Not from this site's pages."),
        "429": error("Too many attempts."),
      },
    },
  },
  "/api/auth/payproc/callback": {
    get: {
      operationId: "completeStripeConnection",
      security: security.session,
      tags: ["Connections"],
      summary: "Stripe Connect OAuth callback",
      description: "A signed-in owner or admin returns here from Stripe with `code` and the signed `state`.",
      requestParams: {
        query: z.object({
          code: z.string().optional(),
          state: z.string().optional(),
          error: z.string().optional(),
        }),
      },
      responses: { "303": redirect("Back to Settings → Payments with the outcome.") },
    },
  },
  "/api/admin/backfill-payment-intents": {
    get: {
      operationId: "backfillPaymentIntents",
      security: security.serviceOrSession,
      tags: ["Admin"],
      summary: "One batch of the payment-intent backfill (spec 4.11)",
      description:
        "A signed-in owner or admin of the workspace (same-origin, with a fresh step-up), or `Authorization: Bearer <SERVICE_API_KEY>`.",
      requestParams: { query: backfillIntentsQuery },
      responses: {
        "200": {
          description: "The batch; `remaining` counts the rows still null.",
          ...json(z.object({ success: z.literal(true), remaining: z.int() }).catchall(z.unknown())),
        },
        "400": error("Bad query."),
        "401": error("Not signed in and no service key."),
        "403": error(
          "Not an owner or admin of the workspace, a cross-site request, a session without the second factor " +
            "the workspace requires, or `code: step_up_required`: prove it is you (POST /api/auth/step-up), then retry.",
        ),
        "409": error("The workspace has no payment-processor connection."),
      },
    },
  },
  "/api/admin/backfill-refunds": {
    get: {
      operationId: "backfillRefunds",
      security: security.serviceOrSession,
      tags: ["Admin"],
      summary: "One page of the refund backfill (spec 4.12)",
      description: "As the payment-intent backfill. Pass `nextCursor` back as `starting_after`.",
      requestParams: { query: backfillRefundsQuery },
      responses: {
        "200": {
          description: "The page.",
          ...json(
            z.object({ success: z.literal(true), nextCursor: z.string().nullable() }).catchall(z.unknown()),
          ),
        },
        "400": error("Bad query."),
        "401": error("Not signed in and no service key."),
        "403": error(
          "Not an owner or admin of the workspace, a cross-site request, a session without the second factor " +
            "the workspace requires, or `code: step_up_required`: prove it is you (POST /api/auth/step-up), then retry.",
        ),
        "409": error("The workspace has no payment-processor connection."),
        "502": error("Stripe could not be reached; try the same page again."),
      },
    },
  },
  "/api/admin/retry-ticketing-webhooks": {
    get: {
      operationId: "retryTicketingWebhooks",
      security: security.serviceKey,
      tags: ["Admin"],
      summary: "Process ticketing deliveries left undone",
      description:
        "`Authorization: Bearer <SERVICE_API_KEY>`. The job worker does this by itself; kept for schedulers.",
      responses: {
        "200": { description: "What was processed.", ...json(z.record(z.string(), z.unknown())) },
        "401": plainError("No or wrong service key."),
      },
    },
    post: {
      operationId: "retryTicketingWebhooksByPost",
      security: security.serviceKey,
      tags: ["Admin"],
      summary: "Process ticketing deliveries left undone (POST form)",
      responses: {
        "200": { description: "What was processed.", ...json(z.record(z.string(), z.unknown())) },
        "401": plainError("No or wrong service key."),
      },
    },
  },
  "/api/audit/export": {
    get: {
      operationId: "exportAuditLog",
      security: security.session,
      tags: ["Dashboard"],
      summary: "The workspace's audit log as CSV (owners only)",
      description:
        "Owners only. The audit page's filters: `action` (one audited action, or a target's prefix such as " +
        "`contact.`), `actor` (a member's id), `target` (a target's id), `from` and `to` (days in the viewer's " +
        "time zone). Newest first, streamed; the export is itself audited (`audit.exported`).",
      requestParams: { query: auditLogQuerySchema.omit({ before: true }) },
      responses: {
        "200": {
          description: "CSV attachment (formula prefixes neutralised).",
          content: { "text/csv": { schema: z.string() } },
        },
        "401": error("Not signed in."),
        "403": error(
          "Not an owner of the workspace, or `code: step_up_required`: prove it is you (POST /api/auth/step-up), then retry.",
        ),
      },
    },
  },
  "/api/consent/{contactId}/ledger": {
    get: {
      operationId: "exportConsentLedger",
      security: security.session,
      tags: ["Dashboard"],
      summary: "A contact's consent ledger as CSV",
      requestParams: { path: uuidParam("contactId", "The contact's id.") },
      responses: {
        "200": { description: "CSV attachment.", content: { "text/csv": { schema: z.string() } } },
        "401": plainError("Not signed in."),
        "404": plainError("No such contact in your workspace."),
      },
    },
  },
  "/api/contacts/import": {
    post: {
      operationId: "importContactsCsv",
      security: security.session,
      tags: ["Dashboard"],
      summary: "CSV import of contacts (spec 4.15), streamed",
      requestBody: {
        required: true,
        content: { "multipart/form-data": { schema: z.object({ file: z.string() }) } },
      },
      responses: {
        "200": { description: "The import report.", ...json(z.record(z.string(), z.unknown())) },
        "400": error("A bad file (not CSV, no email column, empty)."),
        "401": error("Not signed in."),
        "413": error("The file is too large for a browser upload."),
      },
    },
  },
  "/api/contacts/import/preview": {
    post: {
      operationId: "previewContactsImport",
      security: security.session,
      tags: ["Dashboard"],
      summary: "The CSV import's mapping step (spec 4.15): how a file reads, nothing stored",
      description:
        "The body is the file. `?mapping=` a JSON object header -> target (field, custom_field, tags, note, skip); " +
        "without it, the workspace's saved mapping for the same headers, else the headers' names.",
      requestParams: { query: z.object({ mapping: z.string().optional() }) },
      requestBody: { required: true, content: { "text/csv": { schema: z.string() } } },
      responses: {
        "200": {
          description: "Each column's target, the first rows as stored, the rows to be skipped.",
          ...json(z.record(z.string(), z.unknown())),
        },
        "400": error("A bad file or mapping."),
        "401": error("Not signed in."),
        "413": error("The file is too large for a browser upload."),
      },
    },
  },
  "/api/contacts/import/sample": {
    get: {
      operationId: "sampleContactsImport",
      security: security.session,
      tags: ["Dashboard"],
      summary: "A sample CSV laid out as the import reads it by name",
      responses: {
        "200": { description: "CSV attachment.", content: { "text/csv": { schema: z.string() } } },
        "401": error("Not signed in."),
      },
    },
  },
  "/api/contacts/{contactId}/privacy-export": {
    get: {
      operationId: "exportContactData",
      security: security.session,
      tags: ["Dashboard"],
      summary: "Everything stored about a contact (GDPR art. 15)",
      description:
        "Owners and admins. A ZIP of contact.json and one CSV per table; `?format=json` for the JSON alone.",
      requestParams: {
        path: uuidParam("contactId", "The contact's id."),
        query: z.object({ format: z.enum(["json"]).optional() }),
      },
      responses: {
        "200": {
          description: "The archive.",
          content: {
            "application/zip": { schema: z.string() },
            "application/json": { schema: z.record(z.string(), z.unknown()) },
          },
        },
        "401": plainError("Not signed in."),
        "403": {
          description:
            "Not an owner or admin; or `code: step_up_required`: the session must prove its owner again (POST /api/auth/step-up), then retry.",
          ...json(z.object({ error: z.string(), code: z.literal("step_up_required").optional() })),
        },
        "404": plainError("No such contact in your workspace."),
      },
    },
  },
  "/api/events/{eventId}/registrations.csv": {
    get: {
      operationId: "exportEventRegistrations",
      security: security.session,
      tags: ["Dashboard"],
      summary: "An event's registrations as CSV",
      requestParams: { path: uuidParam("eventId", "The event's id."), query: registrationFilterSchema },
      responses: {
        "200": {
          description: "CSV attachment (formula prefixes neutralised).",
          content: { "text/csv": { schema: z.string() } },
        },
        "401": plainError("Not signed in."),
        "404": plainError("No such event in your workspace."),
      },
    },
  },
  "/api/events/{eventId}/check-ins": {
    post: {
      operationId: "syncEventCheckIns",
      security: security.session,
      tags: ["Dashboard"],
      summary: 'The door scanner\'s scans (docs/decisions.md, "One check-in per registration")',
      description:
        "Any member. Each scan is answered on its own: `checked_in`, `already_checked_in` (with the first " +
        "check-in: the earliest scan of any device wins) or `refused` with a code and a message in words.",
      requestParams: { path: uuidParam("eventId", "The event's id.") },
      requestBody: { content: { "application/json": { schema: scanBatchSchema } } },
      responses: {
        "200": {
          description: "One outcome per scan, by the scan's id.",
          ...json(
            z.object({
              results: z.array(
                z
                  .object({ id: z.string(), status: z.enum(["checked_in", "already_checked_in", "refused"]) })
                  .loose(),
              ),
            }),
          ),
        },
        "400": plainError("The scans could not be read."),
        "401": plainError("Not signed in."),
        "404": plainError("No such event in your workspace."),
      },
    },
    get: {
      operationId: "eventCheckInCounts",
      security: security.session,
      tags: ["Dashboard"],
      summary: "An event's check-in counts and latest check-ins (polled by the scanner and the event page)",
      requestParams: { path: uuidParam("eventId", "The event's id.") },
      responses: {
        "200": {
          description: "Registered and checked-in counts, and the 20 latest check-ins.",
          ...json(
            z.object({
              registered: z.number().int(),
              checked_in: z.number().int(),
              recent: z.array(
                z.object({
                  registration_id: z.string(),
                  name: z.string(),
                  checked_in_at: z.string(),
                  by: z.string().nullable(),
                  device_id: z.string().nullable(),
                }),
              ),
            }),
          ),
        },
        "401": plainError("Not signed in."),
        "404": plainError("No such event in your workspace."),
      },
    },
  },
  "/api/segments/{segmentId}/contacts.csv": {
    get: {
      operationId: "exportSegmentContacts",
      security: security.session,
      tags: ["Dashboard"],
      summary: "A saved segment's contacts as CSV",
      requestParams: { path: uuidParam("segmentId", "The segment's id.") },
      responses: {
        "200": {
          description:
            "CSV attachment, newest contacts first, at most 100,000 rows (formula prefixes neutralised).",
          content: { "text/csv": { schema: z.string() } },
        },
        "400": plainError("The segment's stored filter is not valid."),
        "401": plainError("Not signed in."),
        "403": {
          description:
            "`code: step_up_required`: the session must prove its owner again (POST /api/auth/step-up), then retry.",
          ...json(z.object({ error: z.string(), code: z.literal("step_up_required").optional() })),
        },
        "404": plainError("No such segment in your workspace."),
      },
    },
  },
  "/api/health": {
    get: {
      operationId: "getHealth",
      security: security.none,
      tags: ["Operations"],
      summary: "Liveness (no database)",
      responses: { "200": { description: "Up.", ...json(z.object({ ok: z.literal(true) })) } },
    },
  },
  "/api/ready": {
    get: {
      operationId: "getReadiness",
      security: security.none,
      tags: ["Operations"],
      summary: "Readiness (database, migrations, shutdown)",
      description:
        "For a load balancer: 200 when the primary database answers, every migration is applied and the process is " +
        "not shutting down; 503 otherwise. With DATABASE_READ_URL, the replica's replay lag is reported (it does not " +
        "decide readiness: reads fall back to the primary). Each check is `ok`, `failed` or `unknown`.",
      responses: {
        "200": { description: "Ready.", ...json(readiness) },
        "503": { description: "Not ready.", ...json(readiness) },
      },
    },
  },
  "/api/metrics": {
    get: {
      operationId: "getMetrics",
      security: [{ metricsToken: [] }],
      tags: ["Operations"],
      summary: "Prometheus metrics",
      description:
        "Prometheus text format: request durations by route, database pool use, job queue depth and age, outbound " +
        "webhook delivery lag, the process's resources. Requires `Authorization: Bearer <METRICS_TOKEN>`; without it, " +
        "or when METRICS_TOKEN is unset, 404.",
      requestParams: {
        header: z.object({ authorization: z.string().meta({ description: "Bearer METRICS_TOKEN" }) }),
      },
      responses: {
        "200": { description: "The metrics.", content: { "text/plain": { schema: z.string() } } },
        "404": error("No token, a wrong token, or metrics are off."),
      },
    },
  },
  "/api/openapi.json": {
    get: {
      operationId: "getOpenApiDocument",
      security: security.none,
      tags: ["Operations"],
      summary: "This document",
      responses: { "200": { description: "OpenAPI 3.1.", ...json(z.record(z.string(), z.unknown())) } },
    },
  },
};
