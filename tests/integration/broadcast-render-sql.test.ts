import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { renderEmail, renderedMarketingSql, type RenderRecipient } from "@/lib/email/render-email";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

const BODIES: [string, string | null][] = [
  [
    '<p>Hi</p><a href="{{unsubscribe_url}}">Leave</a> {{unsubscribe_url}}',
    "Hi\n\nLeave: {{unsubscribe_url}}",
  ],
  ["<p>No tag here</p>", "No tag here either"],
  ["<p>No tag</p>", null],
  ["<p>Tag only in html {{unsubscribe_url}}</p>", "plain text without it"],
];
const TRACKING_URLS = [
  null,
  "",
  "https://mail.example.test",
  "https://mail.example.test///",
  "https://x.test/?a=1&b=<2>\"'",
];

// a broadcast sent to a subscription topic: the link leaves that topic (docs/decisions.md, "Subscription topics")
const TOPIC = "00000000-0000-4000-8000-000000000001";

describe("spec 4.7 one rendering, two spellings", () => {
  test("4.7: a broadcast rendered in SQL is what renderEmail makes, for eligible and skipped contacts", async () => {
    const ws = await createWorkspace(db.sql);
    const contact = await createContact(db.sql, ws.id, {});
    let cases = 0;
    for (const tracking of TRACKING_URLS) {
      await db.sql`update workspaces set tracking_url = ${tracking} where id = ${ws.id}`;
      for (const [html, text] of BODIES)
        for (const [skip, topicId] of [
          [null, null],
          ["not opted in", null],
          [null, TOPIC],
        ]) {
          const [fromSql] = await withService(
            (tx) => tx`
              select r.html, r.text_body, r.headers
              from (select ${contact.id}::uuid as id, ${skip}::text as skip) b
              cross join (select id, tracking_url from public.workspaces where id = ${ws.id}) w
              cross join lateral ${renderedMarketingSql(tx, html, text, topicId)} r`,
          );
          const recipient = { tracking_url: tracking, workspace_id: ws.id } as RenderRecipient;
          const fromJs = renderEmail(
            { kind: "marketing", contactId: contact.id, html, text: text ?? undefined, topicId },
            skip ? null : recipient,
          );
          expect(fromSql).toEqual({
            html: fromJs.html,
            text_body: fromJs.text ?? null,
            headers: fromJs.headers,
          });
          cases += 1;
        }
    }
    expect(cases).toBe(TRACKING_URLS.length * BODIES.length * 3);
  });
});
