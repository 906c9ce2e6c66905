import { describe, expect, test } from "vitest";
import { displayPrice, ticketPricing } from "@/lib/events/ticket-pricing";

const money = (value: number) => ({ value, currency: "USD", major_value: (value / 100).toFixed(2) });
const paid = (cost: number, fee = 0, tax = 0) => ({
  free: false,
  cost: money(cost),
  fee: money(fee),
  tax: money(tax),
});
const free = { free: true, cost: null, fee: null, tax: null };

describe("4.5 ticket pricing", () => {
  test("4.5: no paid class: no price and a count of 0", () => {
    expect(ticketPricing([])).toEqual({ ticket_price: null, ticket_class_count: 0 });
    expect(ticketPricing([free, free])).toEqual({ ticket_price: null, ticket_class_count: 0 });
    expect(ticketPricing([{ free: false, donation: true, cost: null }])).toEqual({
      ticket_price: null,
      ticket_class_count: 0,
    });
  });

  test("4.5: the price includes tax and fee, in cents", () => {
    expect(ticketPricing([paid(2500, 199, 201)])).toEqual({ ticket_price: "29.00", ticket_class_count: 1 });
    expect(ticketPricing([paid(1, 0, 0)])).toEqual({ ticket_price: "0.01", ticket_class_count: 1 });
  });

  test("4.5: mixed classes: the lowest tax-inclusive paid price, the number of paid classes", () => {
    // 50.00 + 3.00 = 53.00 against 40.00 + 2.50 + 4.00 = 46.50: the lowest after tax and fee wins
    expect(ticketPricing([free, paid(5000, 300), paid(4000, 250, 400)])).toEqual({
      ticket_price: "46.50",
      ticket_class_count: 2,
    });
    // the lower cost is not the lower total
    expect(ticketPricing([paid(1000, 900, 0), paid(1500, 0, 0)])).toEqual({
      ticket_price: "15.00",
      ticket_class_count: 2,
    });
  });
});

describe("display_price", () => {
  test("'Free', '$X' with one paid class, 'From $X' with more, two decimals", () => {
    expect(displayPrice(null, 0)).toBe("Free");
    expect(displayPrice("12.5", 0)).toBe("Free");
    expect(displayPrice("12.5", 1)).toBe("$12.50");
    expect(displayPrice("46.5", 2)).toBe("From $46.50");
    expect(displayPrice("1000.00", 3)).toBe("From $1000.00");
  });
});
