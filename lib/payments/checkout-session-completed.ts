import type { Db } from "@/lib/db/doors";
import { mergeContact } from "@/lib/contacts/merge-contact";
import { decideConsent, type ConsentDecision } from "@/lib/consent/consent-rules";
import { applyConsent } from "@/lib/consent/apply-consent";
import type { SuppressionReason } from "@/lib/consent/email-status";
import { centsToNumeric } from "./money";
import { externalTransactionId, type PurchasedProduct, type Purchaser } from "./checkout-from-stripe";
import type { PayprocConnection } from "./resolve-connection";

export interface CheckoutCompletedInput {
  connection: PayprocConnection;
  sessionId: string;
  /** null for free and fully discounted orders (spec 2.5) */
  paymentIntentId: string | null;
  purchaser: Purchaser;
  products: PurchasedProduct[];
  purchasedAt: Date;
}

export type CheckoutCompletedResult =
  | { status: "duplicate" }
  | { status: "recorded"; contactId: string | null; transactionIds: string[]; subscribed: boolean };

/**
 * Spec 4.4, checkout.session.completed, in the caller's transaction:
 * - steps 4-5 first: products upserted and one transactions row per product inserted, keyed by
 *   external_payproc_transaction_id. When the rows already exist nothing at all happens: the
 *   unique key makes this race-free (a concurrent delivery waits, then finds them).
 * - step 3: the contact is created (source 'payproc') or merged with the diff-and-audit rule;
 *   mergeContact handles concurrent creation (the 23505 case) and writes no note for a new contact.
 * - step 6: auto-subscribe with the rules of decideConsent('payproc_auto_subscribe').
 */
export async function checkoutSessionCompleted(
  db: Db,
  input: CheckoutCompletedInput,
): Promise<CheckoutCompletedResult> {
  const workspaceId = input.connection.workspace_id;
  const transactionIds = await insertPurchases(db, workspaceId, input);
  if (transactionIds.length === 0) return { status: "duplicate" };

  const email = input.purchaser.email?.trim().toLowerCase();
  if (!email) return { status: "recorded", contactId: null, transactionIds, subscribed: false };

  const autoSubscribe = input.connection.auto_subscribe_purchasers;
  const suppressions = autoSubscribe ? await suppressionsOfEmail(db, workspaceId, email) : [];
  const consent: { decision?: ConsentDecision } = {};
  const { contact } = await mergeContact(db, {
    workspaceId,
    email,
    fields: input.purchaser.fields,
    source: "payproc",
    mode: "overwrite",
    via: "payment checkout",
    extra: (existing) => {
      if (!autoSubscribe) return {};
      consent.decision = decideConsent("payproc_auto_subscribe", {
        contact: existing,
        suppressions: existing ? suppressions : [],
      });
      return "skip" in consent.decision ? {} : consent.decision.columns;
    },
  });
  await db`update public.transactions set contact_id = ${contact.id} where id in ${db(transactionIds)}`;

  const decided = consent.decision && !("skip" in consent.decision) ? consent.decision : null;
  // only the suppressions the contact has are cleared (none for a new contact: no statement)
  const change = decided && { ...decided, clear: decided.clear.filter((reason) => suppressions.includes(reason)) };
  if (change) await applyConsent(db, { workspaceId, contactId: contact.id, change });
  return { status: "recorded", contactId: contact.id, transactionIds, subscribed: Boolean(change) };
}

/** Products upserted, then the purchases inserted; returns the ids of the rows inserted now. */
async function insertPurchases(
  db: Db,
  workspaceId: string,
  input: CheckoutCompletedInput,
): Promise<string[]> {
  const products = input.products;
  if (products.length === 0) return [];
  const pids = products.map((p) => p.payprocProductId);
  const names = products.map((p) => p.name);
  // `do nothing` takes no row lock, so concurrent purchases of one product do not queue;
  // a changed name is written by the guarded update, which locks only rows that change.
  await db`
    with input as (
      select * from unnest(${pids}::text[], ${names}::text[]) as i(pid, name)
    ), renamed as (
      update public.products p set name = i.name from input i
      where p.workspace_id = ${workspaceId} and p.payproc_product_id = i.pid and p.name is distinct from i.name
    )
    insert into public.products (workspace_id, payproc_product_id, name)
    select ${workspaceId}, pid, name from input
    on conflict (workspace_id, payproc_product_id) do nothing`;
  const ext = products.map((p) => externalTransactionId(input.sessionId, p.payprocProductId));
  const amounts = products.map((p) => centsToNumeric(p.amountCents));
  const currencies = products.map((p) => p.currency.toLowerCase());
  const rows = await db`
    insert into public.transactions (workspace_id, product_id, amount_paid, currency,
      external_payproc_transaction_id, payproc_payment_intent_id, status, amount_refunded, transaction_date)
    select ${workspaceId}, p.id, i.amount, i.currency, i.ext, ${input.paymentIntentId}, 'succeeded', 0,
           ${input.purchasedAt}
    from unnest(${pids}::text[], ${ext}::text[], ${amounts}::numeric[], ${currencies}::text[])
      as i(pid, ext, amount, currency)
    join public.products p on p.workspace_id = ${workspaceId} and p.payproc_product_id = i.pid
    on conflict (external_payproc_transaction_id) do nothing
    returning id`;
  return rows.map((r) => r.id as string);
}

async function suppressionsOfEmail(db: Db, workspaceId: string, email: string): Promise<SuppressionReason[]> {
  const rows = await db`
    select s.reason from public.contact_suppressions s
    join public.contacts c on c.id = s.contact_id
    where c.workspace_id = ${workspaceId} and c.email = ${email}`;
  return rows.map((r) => r.reason as SuppressionReason);
}
