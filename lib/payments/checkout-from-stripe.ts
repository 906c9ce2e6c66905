import type Stripe from "stripe";
import type { PersonFields } from "@/lib/contacts/contact-row";

export interface PurchasedProduct {
  payprocProductId: string;
  name: string;
  amountCents: number;
  currency: string;
}

export interface Purchaser {
  email: string | null;
  fields: PersonFields;
}

/**
 * Spec 2.5: external_payproc_transaction_id is '<session_id>_<product_id>'; the backfill parses the
 * session id back out with SESSION_ID_PATTERN (docs/decisions.md, "What the spec leaves open").
 */
export function externalTransactionId(sessionId: string, productId: string): string {
  return `${sessionId}_${productId}`;
}
export const SESSION_ID_PATTERN = /^(cs_[a-z]+_[A-Za-z0-9]+)_.+$/;

export function sessionIdOf(externalId: string): string | null {
  return SESSION_ID_PATTERN.exec(externalId)?.[1] ?? null;
}

/** An expandable Stripe reference (an id, or the object) as its id. */
export function idOf(ref: string | { id: string } | null | undefined): string | null {
  if (!ref) return null;
  return typeof ref === "string" ? ref : ref.id;
}

/** 'Ada King Lovelace' → first 'Ada King', last 'Lovelace'; one word is a first name. */
export function splitName(name: string | null | undefined): { first_name?: string; last_name?: string } {
  const words = (name ?? "").trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return {};
  if (words.length === 1) return { first_name: words[0] };
  return { first_name: words.slice(0, -1).join(" "), last_name: words[words.length - 1] };
}

/** Spec 4.4 step 2: email, name, phone and billing address from the customer details. */
export function purchaserOf(session: Stripe.Checkout.Session): Purchaser {
  const details = session.customer_details;
  const address = details?.address;
  return {
    email: details?.email ?? session.customer_email ?? null,
    fields: {
      ...splitName(details?.name),
      phone: details?.phone,
      address_line1: address?.line1,
      address_line2: address?.line2,
      city: address?.city,
      state: address?.state,
      postal_code: address?.postal_code,
      country: address?.country,
    },
  };
}

/**
 * Spec 4.4 step 4: one purchase per product. Line items of the same product (two prices of
 * one product) add up; the currency is stored lowercase.
 */
export function productsOf(items: Stripe.LineItem[]): PurchasedProduct[] {
  const byProduct = new Map<string, PurchasedProduct>();
  for (const item of items) {
    const product = item.price?.product;
    const productId = idOf(product as string | { id: string } | null);
    if (!productId) continue;
    const name =
      (typeof product === "object" && product && "name" in product ? product.name : null) ??
      item.description ??
      productId;
    const seen = byProduct.get(productId);
    if (seen) seen.amountCents += item.amount_total;
    else
      byProduct.set(productId, {
        payprocProductId: productId,
        name,
        amountCents: item.amount_total,
        currency: item.currency.toLowerCase(),
      });
  }
  return [...byProduct.values()];
}
