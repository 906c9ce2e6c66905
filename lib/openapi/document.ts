import { createDocument } from "zod-openapi";
import { appUrl } from "@/lib/config";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/outbound/event-types";
import { webhookPayloadSchema } from "@/lib/webhooks/outbound/payloads";
import { json, securitySchemes } from "./helpers";
import { appRoutePaths } from "./paths/app-routes";
import { v1Paths } from "./paths/v1";

/**
 * GET /api/openapi.json (docs/decisions.md, "OpenAPI and the API reference"): every route under app/api,
 * generated from the zod schemas the handlers parse with, and the outbound webhook payloads. Every
 * operation has an operationId and a security requirement; the REST API v1 (docs/api.md) lists
 * its error responses per code. tests/unit/openapi.test.ts fails when a route or a method exists that
 * this document does not describe, tests/unit/openapi-lint.test.ts when redocly's recommended rules
 * find a problem.
 */
export function openApiDocument() {
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "CRM API",
      version: "2026-11-26",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      description:
        "The REST API v1 of a workspace (contacts, consent, events, transactions, forms, webhook subscriptions; " +
        "scoped keys from Settings → API keys), the public and machine endpoints of the CRM (lead-capture forms, " +
        "recipient links, RSVP, the public events API, provider webhooks, admin backfills), and the signed " +
        "outbound webhooks a workspace can subscribe to (Standard Webhooks: webhook-id, webhook-timestamp, " +
        "webhook-signature).",
    },
    servers: [{ url: appUrl() }],
    components: { securitySchemes },
    // a path of both (the public events list and its preflight) keeps the methods of each
    paths: Object.fromEntries(
      [...new Set([...Object.keys(v1Paths), ...Object.keys(appRoutePaths)])].map((p) => [
        p,
        { ...v1Paths[p], ...appRoutePaths[p] },
      ]),
    ),
    webhooks: Object.fromEntries(
      WEBHOOK_EVENT_TYPES.map((type) => [
        type,
        {
          post: {
            operationId: `webhook_${type.replace(/\./g, "_")}`,
            tags: ["Outbound webhooks"],
            summary: type,
            description:
              "Sent to each enabled endpoint that chose this event, signed per Standard Webhooks with the endpoint's " +
              "secret; retried with backoff for about a day until a 2xx.",
            security: [{ webhookSignature: [] }],
            requestBody: { required: true, ...json(webhookPayloadSchema(type)) },
            responses: { "200": { description: "Any 2xx acknowledges the event." } },
          },
        },
      ]),
    ),
  });
}
