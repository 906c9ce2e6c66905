import type { Sql } from "@/lib/db/client";
import type { SignedEvent, StripeFake } from "../fakes/stripe";
import { stripeId } from "../fakes/stripe-objects";
import { deliver, type Connection } from "./payments";

export interface TestPlan {
  id: string;
  priceId: string;
  productId: string;
}

/** A plan of the workspace: a recurring price on its connected account, at the fake and in the table. */
export async function addPlan(
  sql: Sql,
  fake: StripeFake,
  conn: Connection,
  opts: { amount?: number; interval?: "month" | "year"; name?: string } = {},
): Promise<TestPlan> {
  const price = fake.billing.price({
    account: conn.account,
    amount: opts.amount ?? 2000,
    interval: opts.interval ?? "month",
    product: stripeId("prod", 14),
  });
  const [row] = await sql`
    insert into plans (workspace_id, payproc_price_id, payproc_product_id, name)
    values (${conn.workspaceId}, ${price.id as string}, ${price.product as string}, ${opts.name ?? "Monthly membership"})
    returning id`;
  return { id: row.id, priceId: price.id as string, productId: price.product as string };
}

/** The events the fake has sent since `mark` (a length of fake.billing.events). */
export const eventsSince = (fake: StripeFake, mark: number): SignedEvent[] => fake.billing.events.slice(mark);

/** Delivers each event in turn; every answer must be a 200. */
export async function deliverAll(events: SignedEvent[]): Promise<Record<string, unknown>[]> {
  const bodies: Record<string, unknown>[] = [];
  for (const event of events) {
    const reply = await deliver(event);
    if (reply.status !== 200)
      throw new Error(`${event.event.type} answered ${reply.status}: ${JSON.stringify(reply.body)}`);
    bodies.push(reply.body);
  }
  return bodies;
}

/** The rows a subscription's events leave, without generated ids: what an order must not change. */
export async function recurringRowsOf(sql: Sql, workspaceId: string, subscriptionId: string) {
  const subscriptions = await sql`
    select s.status, s.current_period_start, s.current_period_end, s.cancel_at_period_end, s.canceled_at,
           s.ended_at, s.cancellation_reason, s.latest_invoice_id, s.started_at, s.payproc_customer_id,
           c.email, p.payproc_price_id
    from subscriptions s left join contacts c on c.id = s.contact_id join plans p on p.id = s.plan_id
    where s.workspace_id = ${workspaceId} and s.payproc_subscription_id = ${subscriptionId}`;
  const memberships = await sql`
    select m.status, m.member_since, m.expires_at, c.email
    from memberships m join subscriptions s on s.id = m.subscription_id left join contacts c on c.id = m.contact_id
    where m.workspace_id = ${workspaceId} and s.payproc_subscription_id = ${subscriptionId}`;
  const transactions = await sql`
    select t.external_payproc_transaction_id, t.payproc_payment_intent_id, t.amount_paid, t.amount_refunded,
           t.status, t.currency, t.transaction_date, c.email, p.payproc_product_id
    from transactions t left join contacts c on c.id = t.contact_id left join products p on p.id = t.product_id
    where t.workspace_id = ${workspaceId}
    order by t.external_payproc_transaction_id`;
  const contacts =
    await sql`select email, source from contacts where workspace_id = ${workspaceId} order by email`;
  const tasks = await sql`select kind, status from tasks where workspace_id = ${workspaceId} order by kind`;
  return { subscriptions, memberships, transactions, contacts, tasks };
}
