import Stripe from "stripe";
import { withService, type Db } from "@/lib/db/doors";
import { claimDeliveryAsDone, finishDelivery, storeDelivery } from "@/lib/webhooks/inbox";
import { checkoutSessionCompleted } from "./checkout-session-completed";
import { idOf, productsOf, purchaserOf } from "./checkout-from-stripe";
import { applyChargeRefund } from "./refund-engine";
import { resolveConnection, type PayprocConnection } from "./resolve-connection";
import { onAccount, stripeClient, webhookSecret } from "./stripe-client";
import { withStripeRetry } from "./stripe-retry";

export interface WebhookReply {
  status: number;
  body: Record<string, unknown>;
}

const HANDLED = new Set(["checkout.session.completed", "charge.refunded"]);

/**
 * POST /api/webhooks/payproc (spec 4.4): verify the Stripe signature (400, nothing stored),
 * keep the event in the durable inbox (a replayed event id is acknowledged and not processed
 * again), fetch what the event needs from Stripe outside any database transaction, then
 * process it in one transaction that claims the inbox row and marks it done (rolled back with
 * the work on a failure). A failure answers 500 and marks the row failed, so Stripe delivers
 * the event again and the row is processed again.
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
    return { status: 400, body: { received: false, error: "Invalid Stripe signature." } };
  }
  if (!HANDLED.has(event.type))
    return { status: 200, body: { received: true, ignored: "event type not handled" } };

  const { connection, delivery, done } = await withService(async (db) => {
    const connection = await resolveConnection(db, { account: event.account, livemode: event.livemode });
    const delivery = await storeDelivery(db, {
      provider: "payproc",
      eventId: event.id,
      eventType: event.type,
      payload: event,
      workspaceId: connection?.workspace_id,
    });
    const done = delivery.duplicate
      ? (
          await db`select status in ('done', 'ignored') as done from public.webhook_inbox where id = ${delivery.id}`
        )[0].done
      : false;
    if (!connection && !delivery.duplicate) await finishDelivery(db, delivery.id, { status: "ignored" });
    return { connection, delivery, done: done as boolean };
  });
  if (done) return { status: 200, body: { received: true, duplicate: true } };
  if (!connection)
    return { status: 200, body: { received: true, ignored: "no payproc connection for this event" } };

  try {
    const process = await prepare(event, connection, deps.stripe ?? stripeClient());
    const outcome = await withService(async (db) => {
      if (!(await claimDeliveryAsDone(db, delivery.id))) return { duplicate: true };
      return process(db);
    });
    return { status: 200, body: { received: true, ...outcome } };
  } catch (error) {
    console.error(`payproc webhook ${event.id} (${event.type}) failed`, error);
    const message = error instanceof Error ? error.message : String(error);
    await withService((db) => finishDelivery(db, delivery.id, { error: message }));
    return {
      status: 500,
      body: { received: false, error: "The event could not be processed; it will be retried." },
    };
  }
}

type Process = (db: Db) => Promise<Record<string, unknown>>;

/**
 * The network part first, then the database part. Line items are read where the session
 * lives: on the event's connected account (Stripe-Account), or on the platform itself when
 * the event carries no account (the live-mode fallback).
 */
async function prepare(event: Stripe.Event, connection: PayprocConnection, stripe: Stripe): Promise<Process> {
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
