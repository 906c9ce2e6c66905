import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { getEventById } from "@/lib/events/get-event-by-id";
import { RichTextEditor } from "@/components/events/rich-text-editor";
import RsvpPage from "@/app/rsvp/[eventId]/page";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

const STORED_SCRIPT =
  '<p>Hello</p><img src=x onerror=alert(1)><script>alert(2)</script><a href="javascript:alert(3)">x</a>';

/** What a member's stored HTML becomes once rendered: no handler, no script, no script link. */
function expectInert(html: string) {
  expect(html).toContain("Hello");
  expect(html).not.toMatch(/onerror|<img|<script|javascript:/i);
}

describe("stored user HTML is rendered only through the one sanitiser", () => {
  test("an admin's <img onerror> written straight to events.description (as PostgREST would) does not reach the editor or the public page", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await addMember(db.sql, ws.id, "admin");
    const [event] = await db.sql`
      insert into events (workspace_id, name, timezone, start_time, end_time, is_published)
      values (${ws.id}, 'Party', 'UTC', now() + interval '2 days', now() + interval '3 days', true) returning id`;
    // the REST API's door: role authenticated with the admin's claims, no application code
    const updated = await withUser(
      admin.claims,
      (tx) => tx`update public.events set description = ${STORED_SCRIPT} where id = ${event.id} returning id`,
    );
    expect(updated).toHaveLength(1);
    const [row] = await db.sql`select description from events where id = ${event.id}`;
    expect(row.description).toBe(STORED_SCRIPT);

    // the edit page: the owner loads the event and the editor renders it on the server
    const loaded = await withUser(ws.owner.claims, (tx) =>
      getEventById(tx, { workspaceId: ws.id, eventId: event.id }),
    );
    if (!("data" in loaded)) throw new Error("event not found");
    const editor = renderToString(
      createElement(RichTextEditor, {
        label: "Description",
        name: "description",
        defaultValue: loaded.data.event.description,
      }),
    );
    expectInert(editor);

    // the public RSVP page, rendered as Next renders it on the server
    const page = renderToString(
      await RsvpPage({ params: Promise.resolve({ eventId: event.id }), searchParams: Promise.resolve({}) }),
    );
    expectInert(page);
  });
});
