import type { Db } from "@/lib/db/doors";
import { createNotification } from "@/lib/notifications/create-notification";
import { formatLongDate, tomorrowIn } from "@/lib/time/format";
import { safeTimeZone } from "@/lib/time/zones";
import { formatMoney } from "./money";

/** Spec 4.4 closing reasons (tier 1 with the processor's name replaced, docs/decisions.md, "Refunds"). */
export const TIER1_CLOSING_REASON =
  "Automatically closed — a full refund was processed in the payment processor for this transaction.";
export const TIER2_CLOSING_REASON =
  "Automatically closed — all refunds for this transaction have been reconciled.";
/** Ours: an earlier review task of the intent, replaced by the one for the newer refund (spec 3.1 tier 3). */
export const SUPERSEDED_CLOSING_REASON =
  "Automatically closed — a newer refund for this transaction needs review; see the newer review task.";

export interface ReviewProduct {
  name: string;
  paidCents: number;
  refundedCents: number;
}

export interface ReviewTaskText {
  deltaCents: number;
  currency: string;
  paymentIntentId: string;
  purchasedAt: Date;
  timeZone: string;
  products: ReviewProduct[];
  reason: "no_match" | "several_match";
  matchingNames: string[];
}

/**
 * Spec 4.4 tier 3: the review task lists the original purchase date and the products
 * (already-refunded ones annotated), says why the refund was not applied automatically, and
 * offers the two options.
 */
export function reviewTaskDescription(t: ReviewTaskText): string {
  const money = (cents: number) => formatMoney(cents, t.currency);
  const remaining = t.products.reduce((sum, p) => sum + p.paidCents - p.refundedCents, 0);
  const lines = t.products.map((p) => {
    const note =
      p.refundedCents >= p.paidCents
        ? " (already refunded)"
        : p.refundedCents > 0
          ? ` (${money(p.refundedCents)} already refunded)`
          : "";
    return `- ${p.name}: ${money(p.paidCents)}${note}`;
  });
  const why =
    t.reason === "several_match"
      ? `${money(t.deltaCents)} equals the remaining balance of more than one product (${t.matchingNames.join(", ")}), so it is not clear which one was refunded.`
      : `${money(t.deltaCents)} is less than the ${money(remaining)} not yet refunded, and it does not equal the remaining balance of any single product.`;
  return [
    `A refund of ${money(t.deltaCents)} was processed in the payment processor for payment ${t.paymentIntentId}, and it could not be applied to this purchase automatically.`,
    "",
    `Original purchase date: ${formatLongDate(t.purchasedAt, t.timeZone)}`,
    "Products:",
    ...lines,
    "",
    `Why it was not applied automatically: ${why}`,
    "",
    "Options:",
    "A: Process an additional refund in the payment processor, so that the refunds add up to whole products; it will then be matched automatically.",
    "B: Record a partial refund on the contact profile, on the product or products this refund was for.",
  ].join("\n");
}

export interface CreateReviewTaskInput extends Omit<ReviewTaskText, "timeZone"> {
  workspaceId: string;
  contactId: string | null;
  now?: Date;
}

/**
 * Spec 4.4 tier 3: a review task for the workspace owner (the earliest owner when there are
 * several), due tomorrow in the owner's time zone, and a notification telling them about it.
 */
export async function createReviewTask(db: Db, input: CreateReviewTaskInput): Promise<{ id: string }> {
  const [owner] = await db`
    select m.user_id, p.timezone from public.workspace_members m
    join public.user_profiles p on p.id = m.user_id
    where m.workspace_id = ${input.workspaceId} and m.role = 'owner'
    order by m.created_at, m.user_id
    limit 1`;
  const timeZone = safeTimeZone(owner?.timezone);
  const title = `Review a refund of ${formatMoney(input.deltaCents, input.currency)}`;
  const description = reviewTaskDescription({ ...input, timeZone });
  const [task] = await db`
    insert into public.tasks (workspace_id, contact_id, title, description, kind, status, due_date,
      assigned_user_id, payproc_payment_intent_id, created_by)
    values (${input.workspaceId}, ${input.contactId}, ${title}, ${description}, 'refund_review', 'open',
      ${tomorrowIn(timeZone, input.now)}, ${owner?.user_id ?? null}, ${input.paymentIntentId}, null)
    returning id`;
  await createNotification(db, {
    workspaceId: input.workspaceId,
    userId: owner?.user_id ?? null,
    contactId: input.contactId,
    type: "refund_review",
    title,
    body: "A refund from the payment processor could not be matched to a product automatically.",
    actionUrl: "/tasks",
    actionLabel: "Open tasks",
  });
  return { id: task.id };
}
