import type { Sql } from "@/lib/db/client";
import { withService } from "@/lib/db/doors";
import { acceptTicketingDelivery } from "@/lib/events/ticketing/accept-ticketing-delivery";
import { processTicketingDelivery } from "@/lib/events/ticketing/flows/process-ticketing-deliveries";
import type { FakeEventbrite } from "../fakes/eventbrite";
import { paidClass } from "../fakes/eventbrite";
import { connectToFake, webhookSecretOf } from "./eventbrite";
import { createWorkspace } from "./factories";

/** The steps of a ticketing webhook test: accept a delivery, process it, look at the result. */
export function ticketingSteps(db: { sql: Sql }, eb: { fake: FakeEventbrite }) {
  /** As Eventbrite delivers it: to the endpoint registered with the connection's secret. */
  const accept = (body: unknown) => {
    const webhookId = String((body as { config?: { webhook_id?: unknown } })?.config?.webhook_id ?? "");
    return withService((tx) => acceptTicketingDelivery(tx, { body, secret: webhookSecretOf(webhookId) }));
  };

  async function deliver(body: unknown) {
    const accepted = await accept(body);
    if (!accepted.accepted || !accepted.inboxId) return { accepted, outcome: null };
    return { accepted, outcome: await processTicketingDelivery(accepted.inboxId) };
  }

  /** A connected workspace with one imported event on the fake. */
  async function arrange(opts: { autoSubscribe?: boolean } = {}) {
    const ws = await createWorkspace(db.sql);
    const { webhookId } = await connectToFake(db.sql, eb.fake, ws.id, opts);
    const ebEvent = eb.fake.addEvent({ ticket_classes: [paidClass(2500, 150, 200)] });
    const [event] = await db.sql`
      insert into events (workspace_id, name, external_event_id, start_time, end_time, timezone, is_published)
      values (${ws.id}, 'Imported', ${ebEvent.id}, now() + interval '7 days', now() + interval '8 days', 'UTC', true)
      returning id`;
    return { ws, webhookId, ebEventId: ebEvent.id, eventId: event.id as string };
  }

  const registrationsOf = (eventId: string) =>
    db.sql`select r.status, r.amount_paid, r.external_attendee_id, r.contact_id, c.email, c.source
           from event_registrations r join contacts c on c.id = r.contact_id
           where r.event_id = ${eventId} order by r.external_attendee_id`;

  const runsOf = (automationId: string) =>
    db.sql`select contact_id from automation_runs where automation_id = ${automationId} and status = 'succeeded'`;

  return { accept, deliver, arrange, registrationsOf, runsOf };
}
