import type { Db } from "@/lib/db/doors";
import { mergeContact } from "@/lib/contacts/merge-contact";
import { decideConsent, type ConsentDecision } from "@/lib/consent/consent-rules";
import { applyConsent } from "@/lib/consent/apply-consent";
import type { SuppressionReason } from "@/lib/consent/email-status";
import { addNote } from "@/lib/notes/add-note";
import { erasedAtOf, erasedMessage } from "@/lib/privacy/erased-addresses";
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
 * - step 5: when the session's rows already exist nothing at all happens. One statement
 *   upserts the products (step 4) and reads whether the rows exist, the purchaser's
 *   suppressions (step 6) and whether the address was erased (docs/decisions.md, "Privacy requests"), so a
 *   returning buyer's transaction takes three round trips before its commit (docs/performance.md).
 * - step 3: the contact is created (source 'payproc') or merged with the diff-and-audit rule;
 *   mergeContact handles concurrent creation (the 23505 case) and writes no note for a new contact.
 * - step 4: one transactions row per product, keyed by external_payproc_transaction_id, after
 *   the merge: it holds the contact's row lock by then, so concurrent first purchases by one
 *   email queue on that lock (inserted before it, each row's key check would share-lock the
 *   contact and two deliveries' merges could wait on each other's: a deadlock the concurrency
 *   test caught). A concurrent delivery of the same session waits on the unique key and inserts
 *   nothing; it has then merged the same details into the contact under its row lock, which
 *   changes nothing.
 * - step 6: auto-subscribe with the rules of decideConsent('payproc_auto_subscribe').
 */
export async function checkoutSessionCompleted(
  db: Db,
  input: CheckoutCompletedInput,
): Promise<CheckoutCompletedResult> {
  const workspaceId = input.connection.workspace_id;
  const email = input.purchaser.email?.trim().toLowerCase() || null;
  const autoSubscribe = input.connection.auto_subscribe_purchasers;
  // docs/decisions.md, "Privacy requests": an address erased at the person's request is not auto-subscribed
  // again when it comes back as a new contact; the purchase is recorded and a note says why
  const { recorded, suppressions, erasedAt } = await upsertProducts(db, workspaceId, input, {
    email,
    erasure: autoSubscribe,
  });
  if (recorded) return { status: "duplicate" };

  const consent: { decision?: ConsentDecision } = {};
  const merged = email
    ? await mergeContact(db, {
        workspaceId,
        email,
        fields: input.purchaser.fields,
        source: "payproc",
        mode: "overwrite",
        via: "payment checkout",
        extra: (existing) => {
          if (!autoSubscribe || (erasedAt && !existing)) return {};
          consent.decision = decideConsent("payproc_auto_subscribe", {
            contact: existing,
            suppressions: existing ? suppressions : [],
          });
          return "skip" in consent.decision ? {} : consent.decision.columns;
        },
      })
    : null;
  const contact = merged?.contact ?? null;

  const decided = consent.decision && !("skip" in consent.decision) ? consent.decision : null;
  // only the suppressions the contact has are cleared (none for a new contact: no statement)
  const change = decided && {
    ...decided,
    clear: decided.clear.filter((reason) => suppressions.includes(reason)),
  };
  // Independent writes, sent together (postgres.js pipelines them on the transaction). When a
  // concurrent delivery of the session won, it already subscribed the contact, so this one
  // decided no consent change and there is nothing to undo.
  const [transactionIds] = await Promise.all([
    insertPurchases(db, workspaceId, input, contact?.id ?? null),
    erasedAt && merged?.created
      ? addNote(db, {
          workspaceId,
          contactId: merged.contact.id,
          text: erasedMessage(erasedAt),
          createdBy: null,
        })
      : null,
    change && contact ? applyConsent(db, { workspaceId, contactId: contact.id, change }) : null,
  ]);
  if (transactionIds.length === 0) return { status: "duplicate" };
  return { status: "recorded", contactId: contact?.id ?? null, transactionIds, subscribed: Boolean(change) };
}

const externalIds = (input: CheckoutCompletedInput) =>
  input.products.map((p) => externalTransactionId(input.sessionId, p.payprocProductId));

/**
 * Products inserted (`do nothing` takes no row lock, so concurrent purchases of one product do
 * not queue; a changed name is written by the guarded update, which locks only rows that
 * change), and in the same statement: are the session's rows recorded already, which
 * suppressions does the purchaser have, and (when asked) was the address erased.
 */
async function upsertProducts(
  db: Db,
  workspaceId: string,
  input: CheckoutCompletedInput,
  purchaser: { email: string | null; erasure: boolean },
): Promise<{ recorded: boolean; suppressions: SuppressionReason[]; erasedAt: Date | null }> {
  const { email } = purchaser;
  const pids = input.products.map((p) => p.payprocProductId);
  const names = input.products.map((p) => p.name);
  const erasedAt =
    purchaser.erasure && email ? erasedAtOf(db, { workspaceId, email }) : db`null::timestamptz`;
  const [row] = await db`
    with input as (
      select * from unnest(${pids}::text[], ${names}::text[]) as i(pid, name)
    ), renamed as (
      update public.products p set name = i.name from input i
      where p.workspace_id = ${workspaceId} and p.payproc_product_id = i.pid and p.name is distinct from i.name
    ), inserted as (
      insert into public.products (workspace_id, payproc_product_id, name)
      select ${workspaceId}, pid, name from input
      on conflict (workspace_id, payproc_product_id) do nothing
    )
    select
      exists (
        select 1 from public.transactions where external_payproc_transaction_id = any(${externalIds(input)}::text[])
      ) as recorded,
      coalesce((
        select array_agg(s.reason) from public.contact_suppressions s
        join public.contacts c on c.id = s.contact_id
        where c.workspace_id = ${workspaceId} and c.email = ${email}
      ), '{}') as suppressions,
      ${erasedAt} as erased_at`;
  return {
    recorded: row.recorded,
    suppressions: row.suppressions as SuppressionReason[],
    erasedAt: (row.erased_at as Date | null) ?? null,
  };
}

/** One transactions row per product; returns the ids of the rows inserted now. */
async function insertPurchases(
  db: Db,
  workspaceId: string,
  input: CheckoutCompletedInput,
  contactId: string | null,
): Promise<string[]> {
  const products = input.products;
  if (products.length === 0) return [];
  const pids = products.map((p) => p.payprocProductId);
  const amounts = products.map((p) => centsToNumeric(p.amountCents));
  const currencies = products.map((p) => p.currency.toLowerCase());
  const rows = await db`
    insert into public.transactions (workspace_id, contact_id, product_id, amount_paid, currency,
      external_payproc_transaction_id, payproc_payment_intent_id, status, amount_refunded, transaction_date)
    select ${workspaceId}, ${contactId}::uuid, p.id, i.amount, i.currency, i.ext, ${input.paymentIntentId}, 'succeeded', 0,
           ${input.purchasedAt}
    from unnest(${pids}::text[], ${externalIds(input)}::text[], ${amounts}::numeric[], ${currencies}::text[])
      as i(pid, ext, amount, currency)
    join public.products p on p.workspace_id = ${workspaceId} and p.payproc_product_id = i.pid
    on conflict (external_payproc_transaction_id) do nothing
    returning id`;
  return rows.map((r) => r.id as string);
}
