import { afterAll, beforeAll } from "vitest";
import type { Sql } from "@/lib/db/client";
import { generateWebhookSecret, hashWebhookSecret } from "@/lib/events/ticketing/webhook-secret";
import { startFakeEventbrite, type FakeEventbrite } from "../fakes/eventbrite";

/**
 * The fake Eventbrite for one test file, with the app's environment pointed at it.
 * Returns a handle whose `fake` is set once the server is up.
 */
export function setupFakeEventbrite(): { fake: FakeEventbrite } {
  const handle = {} as { fake: FakeEventbrite };
  const saved: Record<string, string | undefined> = {};
  beforeAll(async () => {
    handle.fake = await startFakeEventbrite();
    const env = {
      ...handle.fake.env,
      APP_URL: "http://crm.test",
      AUTH_SECRET: "test-secret-test-secret-test-secret-42",
    };
    for (const [key, value] of Object.entries(env)) {
      saved[key] = process.env[key];
      process.env[key] = value;
    }
    delete process.env.RESEND_API_KEY;
  });
  afterAll(async () => {
    for (const [key, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
    await handle.fake?.stop();
  });
  return handle;
}

/** The raw webhook secret of each connection made by connectToFake, by webhook id. */
const secrets = new Map<string, string>();
export const webhookSecretOf = (webhookId: string): string | null => secrets.get(webhookId) ?? null;

/** A workspace connected to the fake: a token it accepts and a webhook registered there. */
export async function connectToFake(
  sql: Sql,
  fake: FakeEventbrite,
  workspaceId: string,
  opts: { autoSubscribe?: boolean } = {},
): Promise<{ token: string; webhookId: string; secret: string }> {
  const token = fake.issueToken();
  const webhookId = `wh_${workspaceId.slice(0, 8)}_${Math.random().toString(36).slice(2, 8)}`;
  fake.webhooks.set(webhookId, { id: webhookId });
  const secret = generateWebhookSecret();
  secrets.set(webhookId, secret);
  await sql`
    insert into ticketing_connections (workspace_id, access_token, organization_id, organization_name, webhook_id, webhook_secret_hash, auto_subscribe_attendees)
    values (${workspaceId}, ${token}, ${fake.organization.id}, ${fake.organization.name}, ${webhookId}, ${hashWebhookSecret(secret)}, ${opts.autoSubscribe ?? false})`;
  return { token, webhookId, secret };
}

/** The body Eventbrite POSTs for an action on an object. */
export function delivery(fake: FakeEventbrite, webhookId: string, action: string, path: string) {
  return {
    api_url: fake.apiUrl(path),
    config: {
      action,
      webhook_id: webhookId,
      user_id: "1",
      endpoint_url: "http://crm.test/api/webhooks/ticketing",
    },
  };
}

/** An automation on event_registration that tags the contact, to count its runs. */
export async function registrationAutomation(sql: Sql, workspaceId: string, eventId: string | null = null) {
  const [tag] =
    await sql`insert into tags (workspace_id, name) values (${workspaceId}, 'Attendee') returning id`;
  const [automation] = await sql`
    insert into automations (workspace_id, name, trigger_type, event_id, action_type, action_config)
    values (${workspaceId}, 'Tag attendees', 'event_registration', ${eventId}, 'add_tag', ${sql.json({ tag_id: tag.id })})
    returning id`;
  return { tagId: tag.id as string, automationId: automation.id as string };
}
