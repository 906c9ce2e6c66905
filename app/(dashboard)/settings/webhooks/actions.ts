"use server";

import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { withAdmin } from "@/lib/auth/context";
import { isUuid } from "@/lib/ids/uuid";
import { fieldErrors, type FormState } from "@/lib/http/form-state";
import { createWebhookEndpoint } from "@/lib/webhooks/outbound/create-webhook-endpoint";
import { replayWebhookDelivery, sendWebhookTestEvent } from "@/lib/webhooks/outbound/replay-webhook-delivery";
import { rotateWebhookSecret } from "@/lib/webhooks/outbound/rotate-webhook-secret";
import { webhookEndpointSchema, type WebhookEndpointInput } from "@/lib/webhooks/outbound/schemas";
import {
  deleteWebhookEndpoint,
  updateWebhookEndpoint,
} from "@/lib/webhooks/outbound/update-webhook-endpoint";

export interface EndpointFormState extends FormState {
  /** the signing secret, in the answer that created or rotated it only */
  secret?: string;
  endpointId?: string;
}

const NOT_ALLOWED = "Only owners and admins can manage webhooks.";

/** The endpoint form parsed, or its state with the errors and the values to show again. */
function parseEndpoint(
  form: FormData,
): { input: WebhookEndpointInput; kept: Record<string, string> } | { state: EndpointFormState } {
  const values = {
    url: String(form.get("url") ?? ""),
    description: String(form.get("description") ?? ""),
    eventTypes: form.getAll("eventTypes").map(String),
    enabled: form.get("enabled") === "on",
  };
  const kept = { url: values.url, description: values.description };
  const parsed = webhookEndpointSchema.safeParse(values);
  return parsed.success
    ? { input: parsed.data, kept }
    : { state: { errors: fieldErrors(parsed.error), values: kept } };
}

export async function createEndpointAction(
  _prev: EndpointFormState,
  form: FormData,
): Promise<EndpointFormState> {
  const parsed = parseEndpoint(form);
  if ("state" in parsed) return parsed.state;
  const result = await withAdmin(
    (db, ctx) => createWebhookEndpoint(db, { ...parsed.input, workspaceId: ctx.workspace.workspaceId }),
    NOT_ALLOWED,
  );
  if ("error" in result) return { message: result.error, values: parsed.kept };
  revalidatePath("/settings/webhooks");
  return {
    secret: result.data.secret,
    endpointId: result.data.id,
    success: "Endpoint added. Copy its signing secret now: it will not be shown again.",
  };
}

export async function updateEndpointAction(
  endpointId: string,
  _prev: EndpointFormState,
  form: FormData,
): Promise<EndpointFormState> {
  const parsed = parseEndpoint(form);
  if ("state" in parsed) return parsed.state;
  const result = isUuid(endpointId)
    ? await withAdmin(
        (db, ctx) =>
          updateWebhookEndpoint(db, { ...parsed.input, workspaceId: ctx.workspace.workspaceId, endpointId }),
        NOT_ALLOWED,
      )
    : { error: "This endpoint does not exist." };
  if ("error" in result) return { message: result.error, values: parsed.kept };
  revalidatePath(`/settings/webhooks/${endpointId}`);
  return { success: "Endpoint saved." };
}

export async function rotateSecretAction(
  _prev: EndpointFormState,
  form: FormData,
): Promise<EndpointFormState> {
  const endpointId = String(form.get("endpointId") ?? "");
  if (!isUuid(endpointId)) return { message: "This endpoint does not exist." };
  const result = await withAdmin(
    (db, ctx) => rotateWebhookSecret(db, { workspaceId: ctx.workspace.workspaceId, endpointId }),
    NOT_ALLOWED,
  );
  if ("error" in result) return { message: result.error };
  return {
    secret: result.data.secret,
    success: "New signing secret. Copy it now: it will not be shown again.",
  };
}

export async function deleteEndpointAction(_prev: FormState, form: FormData): Promise<FormState> {
  const endpointId = String(form.get("endpointId") ?? "");
  const result = isUuid(endpointId)
    ? await withAdmin(
        (db, ctx) => deleteWebhookEndpoint(db, { workspaceId: ctx.workspace.workspaceId, endpointId }),
        NOT_ALLOWED,
      )
    : { error: "This endpoint does not exist." };
  if ("error" in result) return { message: result.error };
  redirect("/settings/webhooks?deleted=1");
}

export async function sendTestEventAction(_prev: FormState, form: FormData): Promise<FormState> {
  const endpointId = String(form.get("endpointId") ?? "");
  if (!isUuid(endpointId)) return { message: "This endpoint does not exist." };
  const result = await withAdmin((db) => sendWebhookTestEvent(db, { endpointId }), NOT_ALLOWED);
  if ("error" in result) return { message: result.error };
  revalidatePath(`/settings/webhooks/${endpointId}`);
  return { success: "Test event queued: it appears in the log below within seconds." };
}

export async function replayDeliveryAction(_prev: FormState, form: FormData): Promise<FormState> {
  const deliveryId = String(form.get("deliveryId") ?? "");
  const endpointId = String(form.get("endpointId") ?? "");
  if (!isUuid(deliveryId)) return { message: "This delivery does not exist." };
  const result = await withAdmin((db) => replayWebhookDelivery(db, { deliveryId }), NOT_ALLOWED);
  if ("error" in result) return { message: result.error };
  if (isUuid(endpointId)) revalidatePath(`/settings/webhooks/${endpointId}`);
  return { success: "Delivery queued again, with the same webhook-id." };
}
