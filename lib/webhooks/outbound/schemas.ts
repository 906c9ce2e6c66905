import { z } from "zod";
import { checkWebhookUrl } from "./destination";
import { webhookEventTypeSchema } from "./event-types";

/** An endpoint as an owner or admin enters it (issue 15). */
export const webhookEndpointSchema = z.object({
  url: z.string().transform((raw, ctx) => {
    const checked = checkWebhookUrl(raw);
    if ("error" in checked) {
      ctx.addIssue({ code: "custom", message: checked.error });
      return z.NEVER;
    }
    return checked.url;
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
