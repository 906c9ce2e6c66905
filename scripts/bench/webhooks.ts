/**
 * Outbound webhooks (docs/decisions.md, "Outbound webhooks"): how fast committed changes reach a receiver.
 * Commits N new contacts (one transaction each, 16 at a time) without and then with an endpoint subscribed to
 * contact.created, then drains the deliveries to a local receiver with the worker's own delivery
 * function, and prints events/s delivered against the rate the same changes were committed at.
 *
 *   DATABASE_URL=postgres://… npm run bench -- webhooks
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { withService, withUser } from "../../lib/db/doors";
import { createWebhookEndpoint } from "../../lib/webhooks/outbound/create-webhook-endpoint";
import { deliverDueWebhooks } from "../../lib/webhooks/outbound/flows/deliver-due-webhooks";
import type { BenchModule } from "./index";
import { benchDatabase, table } from "./lib/database";
import { verdict } from "./lib/verdict";

const CHANGES = Number(process.env.BENCH_WEBHOOK_EVENTS ?? 5_000);
const CONCURRENCY = 16;

async function commitContacts(workspaceId: string, prefix: string): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < CHANGES) {
        const i = next++;
        await withService(
          (db) =>
            db`insert into contacts (workspace_id, email) values (${workspaceId}, ${`${prefix}${i}@bench.test`})`,
        );
      }
    }),
  );
  return CHANGES / ((performance.now() - started) / 1000);
}

const bench: BenchModule = {
  title: `Outbound webhooks: ${CHANGES.toLocaleString("en-US")} contact.created events to a local receiver`,
  async run(baseUrl) {
    process.env.WEBHOOKS_ALLOW_PRIVATE_DESTINATIONS = "1";
    let received = 0;
    const receiver = createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        received++;
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    const db = await benchDatabase(baseUrl, "crm_bench_webhooks", { max: CONCURRENCY + 2, keep: false });
    try {
      const [ws] = await db.sql`insert into workspaces (name) values ('Bench') returning id`;
      const [u] = await db.sql`insert into auth.users (email) values ('owner@bench.test') returning id`;
      await db.sql`insert into user_profiles (id, email) values (${u.id}, 'owner@bench.test')`;
      await db.sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${u.id}, 'owner')`;
      const without = await commitContacts(ws.id, "plain");
      await withUser({ sub: u.id, role: "authenticated" }, (tx) =>
        createWebhookEndpoint(tx, {
          workspaceId: ws.id,
          url,
          description: null,
          eventTypes: ["contact.created"],
          enabled: true,
        }),
      );
      const committed = await commitContacts(ws.id, "hooked");
      const started = performance.now();
      // two delivery loops, as two workers would run
      const drain = async () => {
        while ((await deliverDueWebhooks({ limit: 100, concurrency: 16 })) > 0);
      };
      await Promise.all([drain(), drain()]);
      const delivered = received / ((performance.now() - started) / 1000);
      const [{ succeeded }] =
        await db.sql`select count(*) filter (where status = 'succeeded')::int as succeeded from webhook_deliveries`;
      console.log(`\n${received} requests received, ${succeeded} deliveries succeeded (of ${CHANGES})`);
      table(
        ["what", "per second", "ratio"],
        [
          ["contacts committed, no endpoint", Math.round(without), "1.00"],
          [
            "contacts committed, endpoint subscribed (event written)",
            Math.round(committed),
            (committed / without).toFixed(2),
          ],
          [
            "events delivered to the receiver (2 loops x 16)",
            Math.round(delivered),
            (delivered / committed).toFixed(2),
          ],
        ],
      );
      verdict("webhook delivery rate / commit rate of the same changes", delivered / committed, {
        atLeast: 1,
      });
    } finally {
      await db.drop();
      await new Promise((resolve) => receiver.close(resolve));
    }
  },
};

export default bench;
