import { describe, expect, test } from "vitest";
import { runTicketingSync } from "@/lib/events/ticketing/flows/run-ticketing-sync";
import { setupTestDatabase } from "../helpers/db";
import { connectToFake, setupFakeEventbrite } from "../helpers/eventbrite";
import { createWorkspace } from "../helpers/factories";
import { freeClass, paidClass } from "../fakes/eventbrite";

/**
 * Eventbrite's ticket classes are the imported event's ticket types, and each imported
 * registration names the type of the class it came with (docs/decisions.md, "Ticket types").
 */
const db = setupTestDatabase();
const eb = setupFakeEventbrite();

describe("Eventbrite ticket classes as ticket types", () => {
  test("the sync maps classes to types (price in cents, order kept) and each attendee's registration to its class's type; a second sync changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    await connectToFake(db.sql, eb.fake, ws.id);
    eb.fake.events.clear();
    const vip = { ...paidClass(5000, 250, 0), name: "VIP" };
    const free = { ...freeClass(), name: "General" };
    const ebEvent = eb.fake.addEvent({ ticket_classes: [free, vip] });
    eb.fake.addOrder({
      eventId: ebEvent.id,
      buyer: { email: "buyer@example.test" },
      attendees: [
        { email: "vip@example.test", gross_cents: 5250, ticket_class_id: vip.id },
        { email: "general@example.test", ticket_class_id: free.id },
      ],
    });
    expect(await runTicketingSync(ws.id)).toEqual({ data: { events: 1, registrations: 2 } });
    const types = await db.sql`
      select name, price_cents, sort_order, external_ticket_class_id, capacity from event_ticket_types
      where workspace_id = ${ws.id} order by sort_order`;
    expect(types).toEqual([
      { name: "General", price_cents: 0, sort_order: 0, external_ticket_class_id: free.id, capacity: null },
      { name: "VIP", price_cents: 5250, sort_order: 1, external_ticket_class_id: vip.id, capacity: null },
    ]);
    const named = await db.sql`
      select c.email, t.name from event_registrations r
      join contacts c on c.id = r.contact_id
      join event_ticket_types t on t.id = r.ticket_type_id and t.event_id = r.event_id
      where r.workspace_id = ${ws.id} order by c.email`;
    expect(named).toEqual([
      { email: "general@example.test", name: "General" },
      { email: "vip@example.test", name: "VIP" },
    ]);
    expect(await runTicketingSync(ws.id)).toEqual({ data: { events: 1, registrations: 0 } });
    const [{ n }] =
      await db.sql`select count(*)::int as n from event_ticket_types where workspace_id = ${ws.id}`;
    expect(n).toBe(2);
  });
});
