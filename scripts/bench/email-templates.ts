/**
 * Email templates (docs/decisions.md, "Email templates and scheduled broadcasts"):
 * 1. Save: Markdown compiled into the branded MJML layout (compileTemplate), templates/s, and a
 *    recipient's render of it in JS (the preview and test send), renders/s.
 * 2. Send: a broadcast to N contacts whose message has merge tags (first name with a fallback,
 *    last name, city, the unsubscribe link) through the set-based claim, against the floor: the
 *    same branded message with only the unsubscribe link (what every send rendered before merge tags).
 *    The ratio is contacts/s with merge tags / contacts/s without.
 *
 *   DATABASE_URL=postgres://… npm run bench -- email-templates   (also part of `npm run bench -- email`)
 *   BENCH_TEMPLATE_CONTACTS=20000 (default)
 */
import { withService, withUser, type Claims } from "../../lib/db/doors";
import { createBroadcast } from "../../lib/email/broadcasts";
import { compileTemplate, renderForRecipient } from "../../lib/email/email-template";
import { runBroadcast } from "../../lib/email/flows/run-broadcast";
import type { BenchModule } from "./index";
import { benchDatabase, table } from "./lib/database";
import { verdict } from "./lib/verdict";

const CONTACTS = Number(process.env.BENCH_TEMPLATE_CONTACTS ?? 20_000);
const COMPILES = 200;
const MARKDOWN = [
  '# Hello {{first_name | "friend"}} {{last_name}}',
  "",
  "Our **autumn menu** is here, straight to {{city}}: pumpkin loaf, apple tart and spiced buns.",
  "",
  "- Open 7 to 3",
  "- Pre-orders by phone",
  "",
  "[See the menu](https://example.com/menu) · [Leave]({{unsubscribe_url}})",
].join("\n");
const BRANDING = {
  name: "Bench Bakery",
  brand_logo_url: "https://example.com/logo.png",
  brand_color: "#0f766e",
  brand_accent_color: "#b45309",
  postal_address: "12 Mill Lane, Springfield",
};

const bench: BenchModule = {
  title: `Email templates: compile and render; a ${CONTACTS.toLocaleString("en-US")}-contact send with merge tags vs without`,
  async run(baseUrl) {
    const db = await benchDatabase(baseUrl, "crm_bench_templates", { max: 6, keep: false });
    const sql = db.sql;
    try {
      let t = performance.now();
      let compiled = await compileTemplate(MARKDOWN, BRANDING);
      for (let i = 1; i < COMPILES; i++) compiled = await compileTemplate(MARKDOWN, BRANDING);
      const compileRate = COMPILES / ((performance.now() - t) / 1000);
      t = performance.now();
      for (let i = 0; i < COMPILES * 10; i++)
        renderForRecipient(compiled, {
          first_name: `<Ada ${i}>`,
          last_name: "L",
          city: "Town",
          unsubscribe_url: "#",
        });
      const renderRate = (COMPILES * 10) / ((performance.now() - t) / 1000);

      const [user] = await sql`insert into auth.users (email) values ('tpl@bench.test') returning id`;
      await sql`insert into user_profiles (id, email) values (${user.id}, 'tpl@bench.test')`;
      const claims: Claims = { sub: user.id, role: "authenticated", email: "tpl@bench.test" };
      const send = async (name: string, body: string, format: "markdown" | "text") => {
        const [ws] =
          await sql`insert into workspaces (name, postal_address) values (${name}, '12 Mill Lane') returning id`;
        await sql`insert into workspace_members (workspace_id, user_id, role) values (${ws.id}, ${user.id}, 'owner')`;
        await sql`
          insert into contacts (workspace_id, email, first_name, last_name, city, is_subscribed)
          select ${ws.id}, ${name} || i || '@example.test', case when i % 3 = 0 then null else 'Ada' || i end,
                 'Lovelace', 'Town ' || (i % 50), i % 10 <> 0
          from generate_series(1, ${CONTACTS}) i`;
        await sql`analyze contacts`;
        const { id } = await withUser(claims, (tx) =>
          createBroadcast(tx, {
            workspaceId: ws.id,
            createdBy: user.id,
            subject: name,
            body,
            format,
            audience: {},
          }),
        );
        const start = performance.now();
        await runBroadcast({ workspaceId: ws.id, broadcastId: id });
        const seconds = (performance.now() - start) / 1000;
        const [{ n }] = await withService(
          (tx) => tx`select count(*)::int as n from email_sends where broadcast_id = ${id}`,
        );
        return { rate: n / seconds, seconds, n };
      };
      // the floor first, then the measured one, then the floor again: the better floor counts
      // the floor: the same branded message with only the unsubscribe link (the same bytes per row)
      const FLOOR = MARKDOWN.replace(/\{\{ ?(first_name|last_name|city)[^}]*\}\}/g, "someone");
      const floorA = await send("floor-a", FLOOR, "markdown");
      const merged = await send("merged", MARKDOWN, "markdown");
      const floorB = await send("floor-b", FLOOR, "markdown");
      const floor = floorA.rate > floorB.rate ? floorA : floorB;
      table(
        ["measure", "value"],
        [
          ["compile Markdown → MJML → HTML (branded layout)", `${compileRate.toFixed(0)} templates/s`],
          ["render one recipient in JS (preview, test send)", `${renderRate.toFixed(0)} renders/s`],
          ["compiled HTML size", `${compiled.html.length} chars`],
          [
            `send with merge tags (${merged.n} contacts)`,
            `${merged.rate.toFixed(0)} contacts/s (${merged.seconds.toFixed(1)} s)`,
          ],
          [
            `floor: send with the unsubscribe link only (${floor.n})`,
            `${floor.rate.toFixed(0)} contacts/s (${floor.seconds.toFixed(1)} s)`,
          ],
        ],
      );
      verdict("send with merge tags / send with the unsubscribe link only", merged.rate / floor.rate, {
        atLeast: 0.6,
      });
    } finally {
      await db.drop();
    }
  },
};

export default bench;
