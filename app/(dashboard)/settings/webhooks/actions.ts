"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { memberAction } from "@/lib/adapters/member-action";
import { ADMIN_ROLES } from "@/lib/auth/context";
import { AppError, unwrap } from "@/lib/errors/app-error";
import type { FormState } from "@/lib/http/form-state";
import { isUuid, uuidField } from "@/lib/ids/uuid";
import { createWebhookEndpoint } from "@/lib/webhooks/outbound/create-webhook-endpoint";
import { replayWebhookDelivery, sendWebhookTestEvent } from "@/lib/webhooks/outbound/replay-webhook-delivery";
import { rotateWebhookSecret } from "@/lib/webhooks/outbound/rotate-webhook-secret";
import {
  webhookEndpointSchema,
  type EndpointFormState,
  type WebhookEndpointInput,
} from "@/lib/webhooks/outbound/schemas";
import {
  deleteWebhookEndpoint,
  updateWebhookEndpoint,
} from "@/lib/webhooks/outbound/update-webhook-endpoint";

const admins = { roles: ADMIN_ROLES, forbidden: "Only owners and admins can manage webhooks." } as const;
const ENDPOINT_GONE = "This endpoint does not exist.";
const refresh = (endpointId: string) => revalidatePath(`/settings/webhooks/${endpointId}`);

/** The endpoint form: its checkboxes as the schema takes them (a box is sent once, or not at all). */
const endpointForm = z.preprocess((raw) => {
  const form = (raw ?? {}) as Record<string, unknown>;
  const types = form.eventTypes;
  return {
    url: form.url ?? "",
    description: form.description ?? "",
    eventTypes: types === undefined ? [] : Array.isArray(types) ? types : [types],
    enabled: form.enabled === "on" || form.enabled === true,
  };
}, webhookEndpointSchema);

const text = z.string().default("");
/** A hidden id field: one that is not an id is a thing that does not exist (the form's message). */
function existing(id: string, message = ENDPOINT_GONE): string {
  if (!isUuid(id)) throw new AppError("invalid", message);
  return id;
}

/** What the audit row says of an endpoint: its host, not its URL (a path can carry a token). */
const summary = (input: WebhookEndpointInput) => ({
  host: new URL(input.url).host,
  eventTypes: input.eventTypes,
  enabled: input.enabled,
});

export const createEndpointAction = memberAction(
  endpointForm,
  async (db, input, ctx): Promise<EndpointFormState> => {
    const { data } = await createWebhookEndpoint(db, { ...input, workspaceId: ctx.workspaceId });
    ctx.audit.target("webhook_endpoint", data.id).change(null, summary(input));
    return {
      secret: data.secret,
      endpointId: data.id,
      success: "Endpoint added. Copy its signing secret now: it will not be shown again.",
    };
  },
  {
    ...admins,
    audit: "webhook_endpoint.created",
    stepUp: true,
    after: () => revalidatePath("/settings/webhooks"),
  },
);

export const updateEndpointAction = memberAction(
  z.intersection(z.object({ endpointId: uuidField(ENDPOINT_GONE) }), endpointForm),
  async (db, { endpointId, ...input }, ctx): Promise<EndpointFormState> => {
    unwrap(await updateWebhookEndpoint(db, { ...input, workspaceId: ctx.workspaceId, endpointId }));
    ctx.audit.target("webhook_endpoint", endpointId).change(null, summary(input));
    return { success: "Endpoint saved." };
  },
  {
    ...admins,
    audit: "webhook_endpoint.updated",
    stepUp: true,
    args: ["endpointId"],
    after: (_result, { endpointId }) => refresh(endpointId),
  },
);

/** The new secret is in the answer only; the audit row names the endpoint. */
export const rotateSecretAction = memberAction(
  z.object({ endpointId: text }),
  async (db, { endpointId }, ctx): Promise<EndpointFormState> => {
    const { secret } = unwrap(
      await rotateWebhookSecret(db, { workspaceId: ctx.workspaceId, endpointId: existing(endpointId) }),
    );
    ctx.audit.target("webhook_endpoint", endpointId);
    return { secret, success: "New signing secret. Copy it now: it will not be shown again." };
  },
  { ...admins, audit: "webhook_endpoint.secret_rotated", stepUp: true },
);

export const deleteEndpointAction = memberAction(
  z.object({ endpointId: text }),
  async (db, { endpointId }, ctx): Promise<FormState> => {
    unwrap(
      await deleteWebhookEndpoint(db, { workspaceId: ctx.workspaceId, endpointId: existing(endpointId) }),
    );
    ctx.audit.target("webhook_endpoint", endpointId);
    return {};
  },
  {
    ...admins,
    audit: "webhook_endpoint.deleted",
    stepUp: true,
    after: () => redirect("/settings/webhooks?deleted=1"),
  },
);

export const sendTestEventAction = memberAction(
  z.object({ endpointId: text }),
  async (db, { endpointId }, ctx): Promise<FormState> => {
    unwrap(await sendWebhookTestEvent(db, { endpointId: existing(endpointId) }));
    ctx.audit.target("webhook_endpoint", endpointId);
    return { success: "Test event queued: it appears in the log below within seconds." };
  },
  { ...admins, audit: "webhook_endpoint.tested", after: (_result, { endpointId }) => refresh(endpointId) },
);

export const replayDeliveryAction = memberAction(
  z.object({ deliveryId: text, endpointId: text }),
  async (db, { deliveryId }, ctx): Promise<FormState> => {
    unwrap(
      await replayWebhookDelivery(db, { deliveryId: existing(deliveryId, "This delivery does not exist.") }),
    );
    ctx.audit.target("webhook_delivery", deliveryId);
    return { success: "Delivery queued again, with the same webhook-id." };
  },
  {
    ...admins,
    audit: "webhook_delivery.replayed",
    after: (_result, { endpointId }) => {
      if (isUuid(endpointId)) refresh(endpointId);
    },
  },
);
