import Stripe from "stripe";
import { withService, withServiceStatement, type Db } from "@/lib/db/doors";
import { claimDeliveryAsDone, finishDelivery, type Claim } from "@/lib/webhooks/inbox";
import { checkoutSessionCompleted } from "../checkout-session-completed";
import { idOf, productsOf, purchaserOf } from "../checkout-from-stripe";
import { applyChargeRefund } from "../refund-engine";
import { keepPayprocEvent, type PayprocConnection } from "../resolve-connection";
import { onAccount, stripeClient, webhookSecret } from "../stripe-client";
import { withStripeRetry } from "../stripe-retry";
import { BILLING_EVENTS, isBillingEvent, prepareBillingEvent } from "./prepare-billing-event";
import { AppError } from "@/lib/errors/app-error";
import { log } from "@/lib/observability/log";

/** The acknowledgement of a delivery (a refusal is thrown as an AppError). */
export type WebhookReply = Record<string, unknown>;

const HANDLED = new Set(["checkout.session.completed", "charge.refunded", ...BILLING_EVENTS]);

/**
 * POST /api/webhooks/payproc (spec 4.4): verify the Stripe signature (`invalid`, nothing stored),
 * keep the event in the durable inbox (a replayed event id is acknowledged and not processed
 * again), fetch what the event needs from Stripe outside any database transaction, then
 * process it in one transaction that claims the inbox row and marks it done (rolled back with
 * the work on a failure). A failure is `retry_later` and marks the row failed, so Stripe delivers
 * the event again and the row is processed again. A delivery that finds another delivery of
 * the same event processing it is a `conflict`, for the same reason.
 */
export async function receivePayprocWebhook(
  rawBody: string,
  signature: string | null,
  deps: { stripe?: Stripe; secret?: string } = {},
): Promise<WebhookReply> {
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signature ?? "", deps.secret ?? webhookSecret());
  } catch {
    throw new AppError("invalid", "Invalid Stripe signature.");
  }
  if (!HANDLED.has(event.type)) return { received: true, ignored: "event type not handled" };

  const [kept] = await withServiceStatement((db) => keepPayprocEvent(db, event));
  const connection = kept.connection;
  let deliveryId = kept.kept_id ?? kept.existing_id;
  let status = kept.kept_id ? null : kept.existing_status;
  if (!deliveryId) {
    // a concurrent delivery of this event kept it while the statement waited on the key
    const [row] = await withService(
      (db) =>
        db`select id, status from public.webhook_inbox where provider = 'payproc' and event_id = ${event.id}`,
    );
    [deliveryId, status] = [row.id as string, row.status as string];
  }
  if (status === "done" || status === "ignored") return { received: true, duplicate: true };
  if (!connection) return { received: true, ignored: "no payproc connection for this event" };

  try {
    const process = await prepare(event, connection, deps.stripe ?? stripeClient());
    const outcome = await withService((db) => claimed(db, deliveryId, process)).catch((error) => {
      if (error instanceof NotClaimed) return error.claim;
      throw error;
    });
    if (outcome === "finished") return { received: true, duplicate: true };
    if (outcome === "busy") throw busy();
    return { received: true, ...outcome };
  } catch (error) {
    if (error instanceof AppError) throw error;
    log.error({ err: error, eventId: event.id, eventType: event.type }, "payproc webhook failed");
    const message = error instanceof Error ? error.message : String(error);
    await withService((db) => finishDelivery(db, deliveryId, { error: message }));
    throw new AppError("retry_later", "The event could not be processed; it will be retried.");
  }
}

/**
 * Another delivery of the same event holds its inbox row. It may still fail, so this one is
 * not acknowledged: Stripe delivers the event again later, and finds it done or failed.
 */
const busy = () =>
  new AppError("conflict", "The event is being processed by another delivery; it will be retried.");

class NotClaimed extends Error {
  constructor(readonly claim: Exclude<Claim, "claimed">) {
    super(`the inbox row is ${claim}`);
  }
}

/**
 * Claims the inbox row (marking it done) and processes the event, in the caller's transaction.
 * The claim and the work's first statement are sent together rather than one round trip
 * apart. When another worker holds or has finished the row, the work is thrown away:
 * NotClaimed rolls it back.
 */
async function claimed(db: Db, deliveryId: string, process: Process): Promise<Record<string, unknown>> {
  const [claim, work] = await Promise.allSettled([claimDeliveryAsDone(db, deliveryId), process(db)]);
  if (claim.status === "rejected") throw claim.reason;
  if (claim.value !== "claimed") throw new NotClaimed(claim.value);
  if (work.status === "rejected") throw work.reason;
  return work.value;
}

type Process = (db: Db) => Promise<Record<string, unknown>>;

/**
 * The network part first, then the database part. Line items are read where the session
 * lives: on the event's connected account (Stripe-Account), or on the platform itself when
 * the event carries no account (the live-mode fallback).
 */
async function prepare(event: Stripe.Event, connection: PayprocConnection, stripe: Stripe): Promise<Process> {
  // subscriptions, their invoices and a checkout in subscription mode (DESIGN section 9 "Recurring")
  if (isBillingEvent(event)) return prepareBillingEvent(event, connection, stripe);
  if (event.type === "checkout.session.completed") {
    const session = event.data.object as Stripe.Checkout.Session;
    const items = await withStripeRetry(() =>
      stripe.checkout.sessions
        .listLineItems(session.id, { limit: 100, expand: ["data.price.product"] }, onAccount(event.account))
        .autoPagingToArray({ limit: 10_000 }),
    );
    return async (db) => {
      const result = await checkoutSessionCompleted(db, {
        connection,
        sessionId: session.id,
        paymentIntentId: idOf(session.payment_intent),
        purchaser: purchaserOf(session),
        products: productsOf(items),
        purchasedAt: new Date(event.created * 1000),
      });
      return { status: result.status };
    };
  }
  const charge = event.data.object as Stripe.Charge;
  const paymentIntentId = idOf(charge.payment_intent);
  return async (db) => {
    if (!paymentIntentId) return { tier: null };
    const result = await applyChargeRefund(db, {
      workspaceId: connection.workspace_id,
      paymentIntentId,
      chargeRefundedCents: charge.amount_refunded,
      runAutomations: true,
    });
    return { tier: result.tier };
  };
}
