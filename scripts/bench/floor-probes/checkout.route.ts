/**
 * A floor probe (docs/performance.md), never part of the app: `npm run bench -- floor-probes` copies it to
 * app/api/bench-floor/checkout/route.ts for one build and removes it after the run.
 *
 * The least a checkout.session.completed delivery can do, in steps the bench measures one by
 * one (`?part=`): the signature and the inbox row with its own commit (`keep`), then the line
 * items from Stripe through the Stripe client (`stripe`), then (no part) the writes as one
 * statement: the claim, the products, the contact and the purchases, with none of spec 4.4's
 * rules (no merge of the details, no consent, no audit, no erasure check).
 */
import Stripe from "stripe";
import { withServiceStatement } from "@/lib/db/doors";
import { centsToNumeric } from "@/lib/payments/money";
import { externalTransactionId, idOf, productsOf, purchaserOf } from "@/lib/payments/checkout-from-stripe";
import { keepPayprocEvent } from "@/lib/payments/resolve-connection";
import { onAccount, stripeClient, webhookSecret } from "@/lib/payments/stripe-client";

export async function POST(request: Request): Promise<Response> {
  if (process.env.BENCH_FLOOR_PROBES !== "1") return new Response(null, { status: 404 });
  let event: Stripe.Event;
  try {
    const signature = request.headers.get("stripe-signature") ?? "";
    event = Stripe.webhooks.constructEvent(await request.text(), signature, webhookSecret());
  } catch {
    return Response.json({ received: false }, { status: 400 });
  }
  const part = new URL(request.url).searchParams.get("part");
  const [kept] = await withServiceStatement((db) => keepPayprocEvent(db, event));
  if (!kept.kept_id || !kept.connection) return Response.json({ received: true, duplicate: true });
  if (part === "keep") return Response.json({ received: true });

  const session = event.data.object as Stripe.Checkout.Session;
  const items = await stripeClient()
    .checkout.sessions.listLineItems(
      session.id,
      { limit: 100, expand: ["data.price.product"] },
      onAccount(event.account),
    )
    .autoPagingToArray({ limit: 10_000 });
  if (part === "stripe") return Response.json({ received: true });

  const products = productsOf(items);
  const workspaceId = kept.connection.workspace_id;
  const { email, fields } = purchaserOf(session);
  const address = (email ?? "").toLowerCase();
  const rows = await withServiceStatement(
    (db) => db`
      with claim as (
        update public.webhook_inbox set status = 'done', processed_at = now()
        where id = ${kept.kept_id} and status in ('pending', 'failed', 'processing')
        returning id
      ), input as (
        select * from unnest(${products.map((p) => p.payprocProductId)}::text[],
                             ${products.map((p) => p.name)}::text[],
                             ${products.map((p) => externalTransactionId(session.id, p.payprocProductId))}::text[],
                             ${products.map((p) => centsToNumeric(p.amountCents))}::numeric[],
                             ${products.map((p) => p.currency.toLowerCase())}::text[])
          as i(pid, name, ext, amount, currency)
      ), new_products as (
        insert into public.products (workspace_id, payproc_product_id, name)
        select ${workspaceId}, pid, name from input
        on conflict (workspace_id, payproc_product_id) do nothing
        returning id, payproc_product_id
      ), product as (
        select id, payproc_product_id from public.products
        where workspace_id = ${workspaceId} and payproc_product_id in (select pid from input)
        union all select id, payproc_product_id from new_products
      ), new_contact as (
        insert into public.contacts (workspace_id, email, first_name, last_name, source)
        values (${workspaceId}, ${address}, ${fields.first_name ?? null}, ${fields.last_name ?? null}, 'payproc')
        on conflict (workspace_id, email) do nothing
        returning id
      ), contact as (
        select id from public.contacts where workspace_id = ${workspaceId} and email = ${address}
        union all select id from new_contact
      )
      insert into public.transactions (workspace_id, contact_id, product_id, amount_paid, currency,
        external_payproc_transaction_id, payproc_payment_intent_id, status, amount_refunded, transaction_date)
      select ${workspaceId}, (select id from contact limit 1), p.id, i.amount, i.currency, i.ext,
             ${idOf(session.payment_intent)}, 'succeeded', 0, ${new Date(event.created * 1000)}
      from input i join product p on p.payproc_product_id = i.pid
      where exists (select from claim)
      on conflict (external_payproc_transaction_id) do nothing
      returning id`,
  );
  return Response.json({ received: true, rows: rows.length });
}
