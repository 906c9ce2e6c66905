import type { FormState } from "@/lib/http/form-state";
import { z } from "zod";
import { checkWebhookUrl } from "./destination";
import { webhookEventTypeSchema } from "./event-types";

/** An endpoint as an owner or admin enters it (docs/decisions.md, "Outbound webhooks"). */
export const webhookEndpointSchema = z.object({
  url: z.string().transform((raw, ctx) => {
    const checked = checkWebhookUrl(raw);
    if ("error" in checked) {
      ctx.addIssue({ code: "custom", message: checked.error.message });
      return z.NEVER;
    }
    return checked.data;
  }),
  description: z
    .string()
    .trim()
    .max(200, "Use at most 200 characters.")
    .transform((v) => v || null),
  eventTypes: z.array(webhookEventTypeSchema).min(1, "Choose at least one event."),
  enabled: z.boolean(),
});
export type WebhookEndpointInput = z.output<typeof webhookEndpointSchema>;

/** The endpoint forms' answer. */
export interface EndpointFormState extends FormState {
  /** the signing secret, in the answer that created or rotated it only */
  secret?: string;
  endpointId?: string;
}
