import type Stripe from "stripe";
import { describe, expect, test } from "vitest";
import { productsOf, purchaserOf, sessionIdOf, splitName } from "@/lib/payments/checkout-from-stripe";
import { bearerToken, serviceKeyMatches } from "@/lib/auth/service-key";

const item = (product: unknown, amount: number, currency = "USD", description = "Item") =>
  ({ amount_total: amount, currency, description, price: { product } }) as unknown as Stripe.LineItem;

describe("reading a checkout session (spec 4.4 steps 2 and 4)", () => {
  test("4.4 step 2: email, name, phone and billing address from the customer details", () => {
    const session = {
      customer_email: null,
      customer_details: {
        email: "ada@example.test",
        name: "Ada King Lovelace",
        phone: "+12025550143",
        address: {
          line1: "1 Main St",
          line2: null,
          city: "London",
          state: null,
          postal_code: "N1",
          country: "GB",
        },
      },
    } as unknown as Stripe.Checkout.Session;
    expect(purchaserOf(session)).toEqual({
      email: "ada@example.test",
      fields: {
        first_name: "Ada King",
        last_name: "Lovelace",
        phone: "+12025550143",
        address_line1: "1 Main St",
        address_line2: null,
        city: "London",
        state: null,
        postal_code: "N1",
        country: "GB",
      },
    });
    expect(splitName("Cher")).toEqual({ first_name: "Cher" });
    expect(splitName("  ")).toEqual({});
  });

  test("4.4 step 4: one purchase per product, lines of one product added up, currency lowercase", () => {
    const products = productsOf([
      item({ id: "prod_A", name: "T-shirt" }, 1000),
      item("prod_B", 500, "EUR", "Mug"),
      item({ id: "prod_A", name: "T-shirt" }, 250),
    ]);
    expect(products).toEqual([
      { payprocProductId: "prod_A", name: "T-shirt", amountCents: 1250, currency: "usd" },
      { payprocProductId: "prod_B", name: "Mug", amountCents: 500, currency: "eur" },
    ]);
  });

  test("external id format: the backfill parses the session id out of '<session>_<product>'", () => {
    expect(sessionIdOf("cs_test_a1B2_prod_Q9x")).toBe("cs_test_a1B2");
    expect(sessionIdOf("cs_live_ZZ9_prod_1")).toBe("cs_live_ZZ9");
    expect(sessionIdOf("cs_test_a1B2")).toBeNull();
    expect(sessionIdOf("pi_123_prod_1")).toBeNull();
    expect(sessionIdOf("")).toBeNull();
  });
});

describe("the service key of the backfill endpoints", () => {
  test("only the configured key of a sensible length is accepted", () => {
    expect(bearerToken("Bearer abc.def")).toBe("abc.def");
    expect(bearerToken("Basic abc")).toBeNull();
    expect(bearerToken(null)).toBeNull();
    process.env.SERVICE_API_KEY = "a-long-enough-service-key";
    expect(serviceKeyMatches("a-long-enough-service-key")).toBe(true);
    expect(serviceKeyMatches("a-long-enough-service-kez")).toBe(false);
    expect(serviceKeyMatches("")).toBe(false);
    process.env.SERVICE_API_KEY = "short";
    expect(serviceKeyMatches("short")).toBe(false);
    delete process.env.SERVICE_API_KEY;
    expect(serviceKeyMatches("")).toBe(false);
  });
});
