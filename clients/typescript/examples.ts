/**
 * Usage of the typed client, compiled by `tsc --noEmit` (npm test) against the generated types:
 * when the document changes a path, a parameter or a field these lines use, the type check fails.
 * NOTES-api-rest.md quotes them as the README's client examples.
 */
import { createCrmClient } from "./index";

export async function syncExample(baseUrl: string, apiKey: string): Promise<void> {
  const crm = createCrmClient({ baseUrl, apiKey });

  // upsert a contact by email (spec 4.10 merge), once even if retried
  const upserted = await crm.POST("/api/v1/contacts/upsert", {
    body: { email: "ada@example.org", first_name: "Ada" },
  });
  if (upserted.error) throw new Error(upserted.error.error.code);
  const contactId: string = upserted.data.id;

  // walk every event, unpublished included, page by page
  let cursor: string | undefined;
  do {
    const page = await crm.GET("/api/v1/events", { params: { query: { limit: 100, cursor } } });
    if (page.error) throw new Error(page.error.error.message);
    for (const event of page.data.data) console.log(event.name, event.start_time, event.registration_count);
    cursor = page.data.next_cursor ?? undefined;
  } while (cursor);

  // the contact's transactions, and a refund of the newest through the three-tier engine
  const feed = await crm.GET("/api/v1/contacts/{id}/transactions", { params: { path: { id: contactId } } });
  const newest = feed.data?.data.find((item) => item.kind === "transaction");
  if (newest) {
    const refunded = await crm.POST("/api/v1/transactions/{id}/refunds", {
      params: { path: { id: newest.id }, header: { "Idempotency-Key": `refund-${newest.id}` } },
      body: { amount: "5.00", run_automations: true },
    });
    if (refunded.error?.error.code === "conflict") console.log("already fully refunded");
  }

  // REST hooks: subscribe a URL to new contacts, then unsubscribe it
  const hook = await crm.POST("/api/v1/webhook-endpoints", {
    body: { url: "https://hooks.example.org/crm", event_types: ["contact.created"] },
  });
  if (hook.data) {
    console.log("verify deliveries with", hook.data.secret);
    await crm.DELETE("/api/v1/webhook-endpoints/{id}", { params: { path: { id: hook.data.id } } });
  }
}
