import { afterAll, beforeAll } from "vitest";
import type { Sql } from "@/lib/db/client";
import { POST } from "@/app/api/webhooks/payproc/route";
import { startStripeFake, type SignedEvent, type StripeFake } from "../fakes/stripe";
import type { FakeCheckoutInput, FakeLineItemInput } from "../fakes/stripe-objects";
import { stripeId } from "../fakes/stripe-objects";
import { createContact, unique } from "./factories";

/** The fake Stripe server for one test file; the app is pointed at it through its env. */
export function setupStripeFake(): { fake: StripeFake } {
  const handle = {} as { fake: StripeFake };
  beforeAll(async () => {
    handle.fake = await startStripeFake();
    Object.assign(process.env, handle.fake.env);
  });
  afterAll(async () => {
    await handle.fake?.stop();
  });
  return handle;
}

export interface Connection {
  workspaceId: string;
  account: string | null;
}

/** A payproc_connections row (spec 2.10). */
export async function connectPayproc(
  sql: Sql,
  workspaceId: string,
  opts: { account?: string | null; livemode?: boolean; autoSubscribe?: boolean } = {},
): Promise<Connection> {
  const account = opts.account === undefined ? stripeId("acct", 16) : opts.account;
  await sql`
    insert into payproc_connections (workspace_id, payproc_account_id, livemode, auto_subscribe_purchasers)
    values (${workspaceId}, ${account}, ${opts.livemode ?? false}, ${opts.autoSubscribe ?? false})`;
  return { workspaceId, account };
}

/** Posts a signed event to the webhook route, as Stripe would. */
export async function deliver(
  signed: SignedEvent,
  header: string = signed.header,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await POST(
    new Request("http://localhost/api/webhooks/payproc", {
      method: "POST",
      headers: { "content-type": "application/json", "stripe-signature": header },
      body: signed.payload,
    }),
  );
  return { status: response.status, body: await response.json() };
}

export interface Purchase {
  sessionId: string;
  paymentIntentId: string | null;
  chargeId: string | null;
  productIds: string[];
  event: SignedEvent;
}

/** A completed checkout at the fake and its signed event (not yet delivered). */
export function makePurchase(
  fake: StripeFake,
  conn: Connection | { account: string | null },
  opts: Partial<FakeCheckoutInput> & { amounts?: number[]; items?: FakeLineItemInput[] } = {},
): Purchase {
  const items =
    opts.items ??
    (opts.amounts ?? [1000]).map((amountTotal, i) => ({
      name: `Product ${i + 1}`,
      amountTotal,
      productId: stripeId("prod", 14),
    }));
  const { session } = fake.addCheckout({
    email: `${unique("buyer")}@example.test`,
    name: "Ada Lovelace",
    ...opts,
    account: conn.account,
    items,
  });
  const paymentIntentId = (session.payment_intent as string | null) ?? null;
  return {
    sessionId: session.id as string,
    paymentIntentId,
    chargeId: null,
    productIds: items.map((i) => i.productId!).filter(Boolean),
    event: fake.checkoutEvent(session),
  };
}

/** Delivers a purchase and returns its charge id at the fake. */
export async function completePurchase(
  fake: StripeFake,
  conn: Connection,
  opts: Parameters<typeof makePurchase>[2] = {},
): Promise<Purchase> {
  const purchase = makePurchase(fake, conn, opts);
  const reply = await deliver(purchase.event);
  if (reply.status !== 200) throw new Error(`checkout delivery failed: ${JSON.stringify(reply)}`);
  return { ...purchase, chargeId: chargeOf(fake, purchase.paymentIntentId) };
}

export function chargeOf(fake: StripeFake, paymentIntentId: string | null): string | null {
  if (!paymentIntentId) return null;
  return fake.chargeIdOf(paymentIntentId);
}

/** Refunds `amount` cents at the fake and returns the signed charge.refunded event. */
export function refundAtStripe(fake: StripeFake, purchase: Purchase, amount: number): SignedEvent {
  const { charge } = fake.refund(purchase.chargeId!, amount);
  return fake.refundEvent(charge);
}

/** The purchase's transactions rows, in product order. */
export async function rowsOf(sql: Sql, purchase: Purchase) {
  return sql`
    select t.*, p.payproc_product_id from transactions t join products p on p.id = t.product_id
    where t.external_payproc_transaction_id like ${purchase.sessionId + "\\_%"}
    order by array_position(${purchase.productIds}::text[], p.payproc_product_id)`;
}

/** A purchase made before the webhook existed: rows with a null payproc_payment_intent_id. */
export async function historicPurchase(sql: Sql, fake: StripeFake, conn: Connection, amounts: number[]) {
  const items = amounts.map((amountTotal) => ({
    productId: stripeId("prod", 14),
    name: "Old product",
    amountTotal,
  }));
  const { session } = fake.addCheckout({ account: conn.account, email: "old@example.test", items });
  const ids = [];
  for (const item of items)
    ids.push(await historicRow(sql, conn.workspaceId, `${session.id}_${item.productId}`, item.amountTotal));
  return { sessionId: session.id as string, paymentIntentId: session.payment_intent as string | null, ids };
}

export async function historicRow(sql: Sql, workspaceId: string, externalId: string, cents = 1000) {
  const c = await createContact(sql, workspaceId);
  const [row] = await sql`
    insert into transactions (workspace_id, contact_id, amount_paid, currency, external_payproc_transaction_id, transaction_date)
    values (${workspaceId}, ${c.id}, ${cents / 100}, 'usd', ${externalId}, now() - interval '1 year')
    returning id`;
  return row.id as string;
}

export async function intentOf(sql: Sql, id: string) {
  const [row] = await sql`select payproc_payment_intent_id from transactions where id = ${id}`;
  return row.payproc_payment_intent_id;
}
