import { afterEach, describe, expect, test } from "vitest";
import { isEventbriteApiUrl } from "@/lib/events/eventbrite/client";
import { ticketHolder } from "@/lib/events/eventbrite/map-attendee";
import { utcToZonedInput, zonedInputToUtc } from "@/lib/time/format";

describe("ticketing webhook: only the configured Eventbrite API host", () => {
  afterEach(() => delete process.env.EVENTBRITE_API_BASE);

  test("the default API base and nothing else", () => {
    expect(isEventbriteApiUrl("https://www.eventbriteapi.com/v3/orders/1/")).toBe(true);
    for (const url of [
      "http://www.eventbriteapi.com/v3/orders/1/",
      "https://www.eventbriteapi.com.evil.example/v3/orders/1/",
      "https://evil.example/v3/orders/1/?https://www.eventbriteapi.com/v3/",
      "https://user:pw@www.eventbriteapi.com/v3/orders/1/",
      "https://www.eventbriteapi.com/v2/orders/1/",
      "https://www.eventbriteapi.com/v3",
      "not a url",
    ])
      expect(isEventbriteApiUrl(url), url).toBe(false);
  });

  test("a configured base (a test fake) replaces the default", () => {
    process.env.EVENTBRITE_API_BASE = "http://127.0.0.1:4010/v3/";
    expect(isEventbriteApiUrl("http://127.0.0.1:4010/v3/orders/1/")).toBe(true);
    expect(isEventbriteApiUrl("https://www.eventbriteapi.com/v3/orders/1/")).toBe(false);
  });
});

describe("4.5 order.placed step 3: the ticket holder", () => {
  const order = {
    id: "o1",
    event_id: "e1",
    email: "Buyer@Example.test",
    first_name: "Bea",
    last_name: "Buyer",
    status: "placed",
  };

  test("the attendee's own details, amount from the gross cost", () => {
    const holder = ticketHolder(
      {
        id: "a1",
        event_id: "e1",
        order_id: "o1",
        profile: { email: " Ann@Example.test ", first_name: "Ann", cell_phone: "202-555-0143" },
        costs: { gross: { value: 2850 } },
      },
      order,
    );
    expect(holder).toEqual({
      external_attendee_id: "a1",
      external_order_id: "o1",
      external_event_id: "e1",
      email: "ann@example.test",
      first_name: "Ann",
      last_name: null,
      phone: "202-555-0143",
      amount_paid: "28.50",
      status: "registered",
      ticket_class_id: null,
      // not checked in at the door (docs/decisions.md, "Segments": attendance)
      checked_in: false,
    });
    const atTheDoor = ticketHolder({ id: "a2", event_id: "e1", checked_in: true, profile: {} }, order);
    expect(atTheDoor?.checked_in).toBe(true);
  });

  test("a blank attendee email takes the buyer's email and names; a refunded ticket is cancelled with amount 0", () => {
    const holder = ticketHolder(
      {
        id: "a2",
        event_id: "e1",
        profile: { email: "  ", first_name: "Kid" },
        refunded: true,
        costs: { gross: { value: 1000 } },
      },
      order,
    );
    expect(holder).toMatchObject({
      email: "buyer@example.test",
      first_name: "Bea",
      last_name: "Buyer",
      amount_paid: "0.00",
      status: "cancelled",
    });
    expect(ticketHolder({ id: "a3", event_id: "e1", profile: {} }, { ...order, email: "" })).toBeNull();
  });
});

describe("2.7 times in the event's zone", () => {
  test("wall-clock input to UTC and back, across daylight saving", () => {
    expect(zonedInputToUtc("2026-01-15T10:00", "America/New_York").toISOString()).toBe(
      "2026-01-15T15:00:00.000Z",
    );
    expect(zonedInputToUtc("2026-07-15T10:00", "America/New_York").toISOString()).toBe(
      "2026-07-15T14:00:00.000Z",
    );
    expect(utcToZonedInput(new Date("2026-07-15T14:00:00Z"), "America/New_York")).toBe("2026-07-15T10:00");
  });
});
