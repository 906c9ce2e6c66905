import { z } from "zod";
import { uuidField, uuidSchema } from "@/lib/ids/uuid";

const unixSeconds = z
  .string()
  .regex(/^\d{1,12}$/, "Give Unix timestamps in seconds.")
  .transform(Number);

const workspaceId = uuidField("Give workspace_id, the workspace's id.");

/** GET /api/admin/backfill-payment-intents (spec 4.11) */
export const backfillIntentsQuery = z.object({
  workspace_id: workspaceId,
  limit: z
    .string()
    .regex(/^\d+$/, "limit is a whole number.")
    .transform(Number)
    .pipe(z.number().min(1, "limit is at least 1.").max(500, "limit is at most 500."))
    .optional(),
});

/** GET /api/admin/backfill-refunds (spec 4.12); the cursor is accepted as starting_after or cursor. */
export const backfillRefundsQuery = z.object({
  workspace_id: workspaceId,
  since: unixSeconds.optional(),
  until: unixSeconds.optional(),
  starting_after: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,255}$/, "starting_after is a refund id.")
    .optional(),
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_]{1,255}$/, "cursor is a refund id.")
    .optional(),
  limit: z
    .string()
    .regex(/^\d+$/, "limit is a whole number.")
    .transform(Number)
    .pipe(z.number().min(1, "limit is at least 1.").max(100, "limit is at most 100."))
    .optional(),
});

/** recordTransactionRefund from the dashboard form (spec 4.15): dollars with at most two decimals. */
export const recordRefundForm = z.object({
  transactionId: uuidField("Choose a transaction."),
  workspaceId: uuidSchema.optional(),
  refundAmount: z
    .string({ error: "Enter the amount to refund." })
    .trim()
    .regex(/^\d+(\.\d{1,2})?$/, "Enter an amount in dollars, like 12.50.")
    .transform(Number)
    .pipe(z.number().positive("The refund amount must be greater than zero.")),
  runAutomations: z
    .string()
    .optional()
    .transform((v) => v === "on" || v === "true"),
});

/**
 * Payment connection settings (spec 2.10): only what a member chooses. The account and its
 * live mode come from Stripe Connect (docs/decisions.md, "Stripe Connect"); no typed account id.
 */
export const connectionSettingsForm = z.object({
  autoSubscribePurchasers: z
    .string()
    .optional()
    .transform((v) => v === "on"),
});
