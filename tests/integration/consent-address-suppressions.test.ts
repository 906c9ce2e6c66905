import { describe, expect, test } from "vitest";
import * as contactsRoute from "@/app/api/v1/contacts/route";
import * as contactRoute from "@/app/api/v1/contacts/[id]/route";
import * as upsertRoute from "@/app/api/v1/contacts/upsert/route";
import * as subscribeRoute from "@/app/api/v1/contacts/[id]/subscribe/route";
import { withService, withUser } from "@/lib/db/doors";
import { ineligibilityReason } from "@/lib/consent/eligibility";
import { loadConsentState } from "@/lib/consent/load-consent-state";
import { recordDeliverySuppression } from "@/lib/consent/record-delivery-suppression";
import { addManualSuppression } from "@/lib/consent/suppressions";
import { deleteContact } from "@/lib/contacts/delete-contact";
import { mergeContacts } from "@/lib/contacts/merge/merge-contacts";
import { updateContact } from "@/lib/contacts/update-contact";
import { marketingSkipReasonSql } from "@/lib/email/broadcast-audience";
import { applySubmission } from "@/lib/forms/apply-submission";
import { importContactsCsv } from "@/lib/contacts/import-contacts-csv";
import { resubscribeContact } from "@/lib/consent/resubscribe-contact";
import { joinTopics } from "@/lib/consent/topic-consent";
import { createTopic } from "@/lib/consent/topics";
import { bytesOf } from "../helpers/csv";
import { apiKey, call } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, unique, type TestWorkspace } from "../helpers/factories";

/**
 * Spec 3.3 ("a complaint is never removed by any flow") and 8.3 across the contact's life: an
 * address's suppressions outlive its contact (docs/decisions.md, "Suppressions belong to the
 * address"), so deleting, re-addressing or merging a contact does not launder its consent.
 */
const db = setupTestDatabase();

const suppressionsOf = async (contactId: string) =>
  (await db.sql`select reason from contact_suppressions where contact_id = ${contactId} order by reason`).map(
    (r) => r.reason as string,
  );

const contactByEmail = async (wsId: string, email: string) => {
  const [c] = await db.sql`
    select id, is_subscribed, unsubscribed_at, opt_in_source from contacts
    where workspace_id = ${wsId} and email = ${email}`;
  return c;
};

const suppress = (ws: TestWorkspace, contactId: string, reason: "bounce" | "complaint") =>
  withService((tx) => recordDeliverySuppression(tx, { workspaceId: ws.id, contactId, reason }));

const remove = (ws: TestWorkspace, contactId: string) =>
  withService((tx) => deleteContact(tx, { workspaceId: ws.id, contactId }));

describe("consent laundering by deleting the contact", () => {
  test("a complained address deleted and re-created through the API cannot be subscribed: 409 suppressed, nothing changes", async () => {
    const ws = await createWorkspace(db.sql);
    const key = await apiKey(db.sql, ws.id, ["contacts:read", "contacts:write", "consent:write"]);
    const email = `${unique("spam")}@example.test`;
    const created = await call(contactsRoute.POST, { method: "POST", key: key.raw, body: { email } });
    expect(created.status).toBe(201);
    const first = created.body.id as string;
    await suppress(ws, first, "complaint");

    const deleted = await call(contactRoute.DELETE, {
      method: "DELETE",
      key: key.raw,
      path: `/api/v1/contacts/${first}`,
      params: { id: first },
    });
    expect(deleted.status).toBeLessThan(300);
    const again = await call(upsertRoute.POST, {
      method: "POST",
      key: key.raw,
      path: "/api/v1/contacts/upsert",
      body: { email: email.toUpperCase() },
    });
    expect(again.status).toBeLessThan(300);
    const id = again.body.id as string;
    expect(id).not.toBe(first);
    expect(await suppressionsOf(id)).toEqual(["complaint"]);
    const [before] = await db.sql`select * from contacts where id = ${id}`;
    const ledgerBefore = await db.sql`select id from consent_events where contact_id = ${id}`;

    const res = await call(subscribeRoute.POST, {
      method: "POST",
      key: key.raw,
      path: `/api/v1/contacts/${id}/subscribe`,
      params: { id },
      body: { proof: { source: "signup page", ip: "192.0.2.10" } },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe("suppressed");
    const [after] = await db.sql`select * from contacts where id = ${id}`;
    expect(after).toEqual(before);
    expect(await db.sql`select id from consent_events where contact_id = ${id}`).toEqual(ledgerBefore);
    expect(await suppressionsOf(id)).toEqual(["complaint"]);
  });

  test("a re-created address gets back its hard bounce and its manual block, and the dashboard shows them", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("gone")}@example.test`;
    const c = await createContact(db.sql, ws.id, { email, is_subscribed: true });
    await suppress(ws, c.id, "bounce");
    await withUser(ws.owner.claims, (tx) =>
      addManualSuppression(tx, { workspaceId: ws.id, contactId: c.id, actorUserId: ws.owner.id }),
    );
    await remove(ws, c.id);
    const back = await createContact(db.sql, ws.id, { email, is_subscribed: true });
    expect(await suppressionsOf(back.id)).toEqual(["bounce", "manual"]);
    const [row] = await db.sql`select email_suppressed from contacts where id = ${back.id}`;
    expect(row.email_suppressed).toBe(true);
  });

  test("a form submission with is_subscribed true does not subscribe a laundered complained address", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("form")}@example.test`;
    const c = await createContact(db.sql, ws.id, { email, is_subscribed: true });
    await suppress(ws, c.id, "complaint");
    await remove(ws, c.id);
    const [form] = await db.sql<{ id: string; workspace_id: string; name: string }[]>`
      insert into forms (workspace_id, name, require_verification) values (${ws.id}, 'Signup', false)
      returning *`;
    const applied = await withService((tx) =>
      applySubmission(tx, {
        form: form as never,
        fields: { email, isSubscribed: true, person: {} } as never,
        payload: { email },
        ip: "203.0.113.21",
        submissionType: "direct",
      }),
    );
    expect(await suppressionsOf(applied.contactId)).toEqual(["complaint"]);
    const state = await withService((tx) => loadConsentState(tx, { contactId: applied.contactId }));
    expect(ineligibilityReason("marketing", state!)).toBe("complaint suppression");
    expect(ineligibilityReason("transactional", state!)).toBe("complaint suppression");
  });

  test("send eligibility skips a laundered address, in both spellings of spec 8.3", async () => {
    const ws = await createWorkspace(db.sql);
    const emails = [`${unique("b")}@example.test`, `${unique("c")}@example.test`];
    for (const [i, email] of emails.entries()) {
      const c = await createContact(db.sql, ws.id, { email, is_subscribed: true });
      await suppress(ws, c.id, i === 0 ? "bounce" : "complaint");
      await remove(ws, c.id);
    }
    const back = await Promise.all(
      emails.map((email) => createContact(db.sql, ws.id, { email, is_subscribed: true })),
    );
    const rows = await withUser(
      ws.owner.claims,
      (tx) =>
        tx`select c.id, ${marketingSkipReasonSql(tx)} as reason from public.contacts c
           where c.workspace_id = ${ws.id} order by c.email`,
    );
    expect(rows.map((r) => r.reason)).toEqual(["bounce suppression", "complaint suppression"]);
    for (const c of back) {
      const state = await withService((tx) => loadConsentState(tx, { contactId: c.id }));
      expect(ineligibilityReason("transactional", state!)).not.toBeNull();
    }
  });
});

test("every other subscribe flow sees a laundered complaint: the link, a topic join and an import with consent", async () => {
  const ws = await createWorkspace(db.sql);
  const topic = await withService((tx) =>
    createTopic(tx, { workspaceId: ws.id, key: "news", name: "News", description: "", defaultOn: true }),
  );
  if ("error" in topic) throw topic.error;
  const [linked, joined, imported] = [unique("l"), unique("j"), unique("i")].map((p) => `${p}@example.test`);
  for (const email of [linked, joined, imported]) {
    const c = await createContact(db.sql, ws.id, { email, is_subscribed: true });
    await suppress(ws, c.id, "complaint");
    await remove(ws, c.id);
  }

  const l = await createContact(db.sql, ws.id, { email: linked, unsubscribed_at: new Date() });
  const link = await withService((tx) => resubscribeContact(tx, { contactId: l.id, ip: null }));
  expect(link).toMatchObject({ reason: "complaint" });

  const j = await createContact(db.sql, ws.id, { email: joined });
  const join = await withService(async (tx) => {
    const state = (await loadConsentState(tx, { contactId: j.id }))!;
    return joinTopics(tx, state, { flow: "api_subscribe", topicIds: [topic.data.id], source: "x" });
  });
  expect(join).toHaveProperty("skip");
  expect(await db.sql`select 1 from contact_topics where contact_id = ${j.id} and subscribed`).toHaveLength(
    0,
  );

  const result = await withUser(ws.owner.claims, (tx) =>
    importContactsCsv(tx, {
      workspaceId: ws.id,
      file: bytesOf(`email\n${imported}\n`, 997),
      markSubscribed: true,
      uploaderIp: "198.51.100.4",
      actorUserId: ws.owner.id,
    }),
  );
  expect(result).toMatchObject({ data: { consentSkippedComplaint: 1 } });
  const i = await contactByEmail(ws.id, imported);
  expect(await suppressionsOf(i.id)).toEqual(["complaint"]);
  for (const c of [l, j, i]) {
    const state = await withService((tx) => loadConsentState(tx, { contactId: c.id }));
    expect(ineligibilityReason("marketing", state!)).toBe("complaint suppression");
  }
});

describe("consent laundering by changing or merging the address", () => {
  test("changing a contact's email away and back keeps the address's bounce", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("away")}@example.test`;
    const c = await createContact(db.sql, ws.id, { email });
    await suppress(ws, c.id, "bounce");
    const setEmail = (to: string) =>
      withUser(ws.owner.claims, async (tx) => {
        const result = await updateContact(tx, { workspaceId: ws.id, contactId: c.id, email: to });
        if ("error" in result) throw result.error;
      });
    await setEmail(`${unique("elsewhere")}@example.test`);
    expect(await suppressionsOf(c.id)).toEqual([]);
    await setEmail(email);
    expect(await suppressionsOf(c.id)).toEqual(["bounce"]);
  });

  test("a complaint follows the contact to its new address: deleting and re-creating that one does not clear it", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { email: `${unique("old")}@example.test` });
    await suppress(ws, c.id, "complaint");
    const newEmail = `${unique("new")}@example.test`;
    await withUser(ws.owner.claims, (tx) =>
      updateContact(tx, { workspaceId: ws.id, contactId: c.id, email: newEmail }),
    );
    await remove(ws, c.id);
    const back = await createContact(db.sql, ws.id, { email: newEmail });
    expect(await suppressionsOf(back.id)).toEqual(["complaint"]);
  });

  test("merging a bounced contact into another keeps its address's bounce", async () => {
    const ws = await createWorkspace(db.sql);
    const bEmail = `${unique("b")}@example.test`;
    const a = await createContact(db.sql, ws.id, { email: `${unique("a")}@example.test` });
    const b = await createContact(db.sql, ws.id, { email: bEmail });
    await suppress(ws, b.id, "bounce");
    await withUser(ws.owner.claims, async (tx) => {
      const result = await mergeContacts(tx, {
        workspaceId: ws.id,
        keepId: a.id,
        mergeId: b.id,
        choices: {},
        actorUserId: ws.owner.id,
      });
      if ("error" in result) throw result.error;
    });
    expect(await suppressionsOf(a.id)).toEqual(["bounce"]);
    const back = await createContact(db.sql, ws.id, { email: bEmail });
    expect(await suppressionsOf(back.id)).toEqual(["bounce"]);
  });
});

describe("the address's list follows the flows that may clear a suppression", () => {
  test("a bounce cleared by a form's consent (spec 4.2.3) is not restored when the address returns", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("ok")}@example.test`;
    const c = await createContact(db.sql, ws.id, { email });
    await suppress(ws, c.id, "bounce");
    const [form] = await db.sql`
      insert into forms (workspace_id, name, require_verification) values (${ws.id}, 'Signup', false)
      returning *`;
    await withService((tx) =>
      applySubmission(tx, {
        form: form as never,
        fields: { email, isSubscribed: true, person: {} } as never,
        payload: { email },
        ip: "203.0.113.22",
        submissionType: "direct",
      }),
    );
    expect(await suppressionsOf(c.id)).toEqual([]);
    await remove(ws, c.id);
    const back = await createContact(db.sql, ws.id, { email });
    expect(await suppressionsOf(back.id)).toEqual([]);
    expect(await contactByEmail(ws.id, email)).toBeTruthy();
  });

  test("members can neither read nor write the address list", async () => {
    const ws = await createWorkspace(db.sql);
    for (const statement of [
      "select * from public.address_suppressions",
      "delete from public.address_suppressions",
    ]) {
      const error = await withUser(ws.owner.claims, (tx) => tx.unsafe(statement)).then(
        () => null,
        (e: { code?: string }) => e.code,
      );
      expect(error).toBe("42501");
    }
  });
});
