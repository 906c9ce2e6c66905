import { z } from "zod";
import { uuidSchema } from "@/lib/ids/uuid";
import { APP_ERROR_CODES, type AppErrorCode } from "@/lib/errors/app-error";

/**
 * Building blocks of the OpenAPI document (docs/decisions.md, "OpenAPI and the API reference"):
 * content, the envelope of the routes outside v1, redirects, path parameters and the security
 * requirements every operation names (redocly's recommended ruleset: no operation without one).
 */
export const errorEnvelope = z
  .object({
    success: z.literal(false),
    error: z.string().meta({ description: "A readable reason." }),
    code: z
      .enum(Object.keys(APP_ERROR_CODES) as [AppErrorCode, ...AppErrorCode[]])
      .meta({ description: "What was refused, for a program to act on (lib/errors/app-error.ts)." }),
  })
  .meta({ id: "Error" });

export const json = (schema: z.ZodType) => ({ content: { "application/json": { schema } } });
export const error = (description: string) => ({ description, ...json(errorEnvelope) });
export const plainError = (description: string) => ({
  description,
  ...json(z.object({ error: z.string() })),
});
export const redirect = (description: string) => ({
  description,
  headers: z.object({ Location: z.string().meta({ description: "Where the browser goes next." }) }),
});
export const html = (description: string) => ({
  description,
  content: { "text/html": { schema: z.string() } },
});
export const uuidParam = (name: string, description: string) =>
  z.object({ [name]: uuidSchema.meta({ description }) });

/** Security requirements: `{}` is "no credential" (a public route that authenticates by what it receives). */
type Requirements = Record<string, string[]>[];

export const security = {
  none: [{}] as Requirements,
  session: [{ session: [] }] as Requirements,
  serviceOrSession: [{ serviceKey: [] }, { session: [] }] as Requirements,
  serviceKey: [{ serviceKey: [] }] as Requirements,
  /** A workspace API key holding `scope` (docs/api.md: scopes per operation). */
  apiKey: (scope: string): Requirements => [{ apiKey: [scope] }],
};

export const securitySchemes = {
  apiKey: {
    type: "http",
    scheme: "bearer",
    description:
      "A workspace API key (Settings → API keys) as `Authorization: Bearer <key>`. Each key holds scopes; an " +
      "operation lists the scope it needs, and another area's data inside an answer (timeline kinds, segment " +
      "conditions, webhook event types) needs that area's read scope too; no key reads a consent's IP address " +
      '(docs/api.md, "Scopes and the data they reach").',
  },
  apiKeyQuery: {
    type: "apiKey",
    in: "query",
    name: "key",
    description: "The public events API alone: the key as `?key=`.",
  },
  serviceKey: { type: "http", scheme: "bearer", description: "SERVICE_API_KEY." },
  session: { type: "apiKey", in: "cookie", name: "crm_session", description: "A signed-in member." },
  formKey: { type: "apiKey", in: "header", name: "x-api-key", description: "A form's key." },
  formKeyQuery: { type: "apiKey", in: "query", name: "api_key", description: "A form's key." },
  stripeSignature: {
    type: "apiKey",
    in: "header",
    name: "Stripe-Signature",
    description: "Stripe's signature with STRIPE_WEBHOOK_SECRET.",
  },
  ticketingSecret: {
    type: "apiKey",
    in: "query",
    name: "secret",
    description: "The connection's webhook secret (DESIGN section 7).",
  },
  resendSignature: {
    type: "apiKey",
    in: "header",
    name: "svix-signature",
    description: "Resend's signature with RESEND_WEBHOOK_SECRET (with svix-id and svix-timestamp).",
  },
  metricsToken: { type: "http", scheme: "bearer", description: "METRICS_TOKEN." },
  webhookSignature: {
    type: "apiKey",
    in: "header",
    name: "webhook-signature",
    description:
      "Standard Webhooks: verify webhook-signature over webhook-id, webhook-timestamp and the body with the " +
      "endpoint's secret.",
  },
} as const;
