import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { createForm, randomIp, submit } from "../helpers/forms";

const db = setupTestDatabase();

const contactByEmail = async (workspaceId: string, email: string) =>
  (await db.sql`select * from contacts where workspace_id = ${workspaceId} and email = ${email}`)[0];
const suppressions = async (contactId: string) =>
  (await db.sql`select reason from contact_suppressions where contact_id = ${contactId} order by reason`).map(
    (r) => r.reason,
  );

describe("spec 4.2.2 B: path B, non-destructive merge", () => {
  test("4.2.2 B: a new email creates a 'form' contact and a submission row with full payload, IP and type", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const payload = {
      email: "  New.Lead@Example.TEST ",
      firstName: "Nia",
      lastName: "Lead",
      phone: "(202) 555-0143",
      utm_campaign: "spring",
    };
    const res = await submit(form.id, { json: payload, ip: "198.51.100.7" });
    expect(res.status).toBe(200);
    const contact = await contactByEmail(ws.id, "new.lead@example.test");
    expect(contact).toMatchObject({
      first_name: "Nia",
      last_name: "Lead",
      phone: "(202) 555-0143",
      source: "form",
      is_subscribed: false,
      opt_in_timestamp: null,
    });
    expect(await res.json()).toEqual({ success: true, contact_id: contact.id });
    const [submission] = await db.sql`
      select contact_id, payload, host(ip_address) as ip, submission_type from form_submissions where form_id = ${form.id}`;
    expect(submission).toEqual({
      contact_id: contact.id,
      payload,
      ip: "198.51.100.7",
      submission_type: "direct",
    });
  });

  test("4.2.2 B.1: never overwrites an existing first name, last name or phone; fills empty fields", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const c = await createContact(db.sql, ws.id, {
      first_name: "Ada",
      last_name: null,
      phone: "2025550143",
      source: "payproc",
    });
    const res = await submit(form.id, {
      form: { email: c.email, first_name: "Eve", last_name: "Lovelace", phone: "3105550100", city: "London" },
    });
    expect(res.status).toBe(200);
    const row = await contactByEmail(ws.id, c.email);
    expect(row).toMatchObject({
      first_name: "Ada",
      last_name: "Lovelace",
      phone: "2025550143",
      city: "London",
      source: "payproc",
    });
    const notes = await db.sql`select 1 from notes where contact_id = ${c.id}`;
    expect(notes).toHaveLength(0);
    const [submission] =
      await db.sql`select contact_id, submission_type from form_submissions where form_id = ${form.id}`;
    expect(submission).toEqual({ contact_id: c.id, submission_type: "direct" });
  });

  test("4.2.2 B: the form key bypasses verification for an existing contact (type 'api_key'), still non-destructive", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const c = await createContact(db.sql, ws.id, { first_name: "Ada" });
    const res = await submit(form.id, {
      json: { email: c.email, first_name: "Eve", last_name: "Byron" },
      headers: { "x-api-key": form.key },
    });
    expect(await res.json()).toEqual({ success: true, contact_id: c.id });
    expect(await contactByEmail(ws.id, c.email)).toMatchObject({ first_name: "Ada", last_name: "Byron" });
    const pending = await db.sql`select 1 from pending_form_submissions where form_id = ${form.id}`;
    expect(pending).toHaveLength(0);
    const [submission] =
      await db.sql`select submission_type from form_submissions where form_id = ${form.id}`;
    expect(submission.submission_type).toBe("api_key");
  });

  test("4.2.2 B.4: notes and message become one system note; the payload is not dumped into it", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    await submit(form.id, {
      json: { email: "n@example.test", message: "Call me <b>after 5</b>", secret_field: "do-not-copy" },
    });
    const contact = await contactByEmail(ws.id, "n@example.test");
    const notes =
      await db.sql`select content, content_text, created_by, type from notes where contact_id = ${contact.id}`;
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatchObject({ created_by: null, type: "contact" });
    expect(notes[0].content_text).toContain("Call me <b>after 5</b>");
    expect(notes[0].content).toContain("Call me &lt;b&gt;after 5&lt;/b&gt;");
    expect(notes[0].content_text).not.toContain("do-not-copy");
    expect(notes[0].content_text).not.toContain("n@example.test");
    await submit(form.id, { json: { email: "quiet@example.test" } });
    const quiet = await contactByEmail(ws.id, "quiet@example.test");
    expect(await db.sql`select 1 from notes where contact_id = ${quiet.id}`).toHaveLength(0);
  });

  test("4.2.2 B.3: 50 concurrent submissions of one new email make one contact and 50 submissions, no error", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        submit(form.id, { json: { email: "race@example.test", first_name: `N${i}`, is_subscribed: true } }),
      ),
    );
    expect(responses.map((r) => r.status)).toEqual(Array(50).fill(200));
    const ids = new Set((await Promise.all(responses.map((r) => r.json()))).map((b) => b.contact_id));
    const contacts = await db.sql`select id from contacts where workspace_id = ${ws.id}`;
    expect(contacts).toHaveLength(1);
    expect([...ids]).toEqual([contacts[0].id]);
    const [{ n }] =
      await db.sql`select count(*)::int as n from form_submissions where contact_id = ${contacts[0].id}`;
    expect(n).toBe(50);
  });
});

describe("spec 4.2.3: consent on form submit", () => {
  test("4.2.3: each truthy is_subscribed (true, 'true', 'on') subscribes with time, IP and the form id", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    for (const [i, value] of [true, "true", "on"].entries()) {
      const email = `yes${i}@example.test`;
      const before = Date.now();
      const res = await submit(form.id, { json: { email, is_subscribed: value }, ip: "192.0.2.44" });
      expect(res.status).toBe(200);
      const c = await contactByEmail(ws.id, email);
      expect(c).toMatchObject({
        is_subscribed: true,
        opt_in_source: form.id,
        opt_in_ip: "192.0.2.44",
        unsubscribed_at: null,
      });
      expect(c.opt_in_timestamp.getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
    const encoded = await submit(form.id, { form: { email: "box@example.test", is_subscribed: "on" } });
    expect(encoded.status).toBe(200);
    expect((await contactByEmail(ws.id, "box@example.test")).is_subscribed).toBe(true);
  });

  test("4.2.3: a custom opt_in_source is recorded instead of the form id", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    await submit(form.id, {
      json: { email: "src@example.test", is_subscribed: "true", opt_in_source: "Spring fair" },
    });
    expect((await contactByEmail(ws.id, "src@example.test")).opt_in_source).toBe("Spring fair");
  });

  test("4.2.3: consent clears unsubscribed_at and every suppression but a complaint (3.3: never cleared)", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const c = await createContact(db.sql, ws.id, {
      is_subscribed: false,
      unsubscribed_at: new Date("2026-01-01"),
    });
    await db.sql`insert into contact_suppressions (contact_id, reason)
                 values (${c.id}, 'bounce'), (${c.id}, 'unsubscribe'), (${c.id}, 'manual'), (${c.id}, 'complaint')`;
    const ip = randomIp();
    const res = await submit(form.id, { json: { email: c.email, is_subscribed: true }, ip });
    expect(res.status).toBe(200);
    expect(await contactByEmail(ws.id, c.email)).toMatchObject({
      is_subscribed: true,
      unsubscribed_at: null,
    });
    expect(await suppressions(c.id)).toEqual(["complaint"]);
    const ledger = await db.sql`
      select action, flow, source, reason, host(ip) as ip from consent_events where contact_id = ${c.id}`;
    expect(ledger).toEqual([
      { action: "subscribed", flow: "form", source: form.id, reason: expect.any(String), ip },
    ]);
    // the ledger's proof names what the consent cleared (docs/decisions.md, "Consent operations")
    const [, cleared] = ledger[0].reason.match(/^cleared suppressions: (.*)$/);
    expect(cleared.split(", ").sort()).toEqual(["bounce", "manual", "unsubscribe"]);
  });

  test("4.2.3: consent with nothing to clear writes one ledger entry without a reason, the contact's and the form's", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const other = await createContact(db.sql, ws.id, { is_subscribed: false });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${other.id}, 'bounce')`;
    const res = await submit(form.id, {
      json: { email: "fresh@example.test", is_subscribed: true },
      ip: randomIp(),
    });
    expect(res.status).toBe(200);
    const contact = await contactByEmail(ws.id, "fresh@example.test");
    const ledger = await db.sql`
      select workspace_id, contact_id, action, flow, source, reason, actor_user_id, actor_api_key_id, topic_id
      from consent_events where contact_id = ${contact.id}`;
    expect(ledger).toEqual([
      {
        workspace_id: ws.id,
        contact_id: contact.id,
        action: "subscribed",
        flow: "form",
        source: form.id,
        reason: null,
        actor_user_id: null,
        actor_api_key_id: null,
        topic_id: null,
      },
    ]);
    // another contact's suppression is untouched
    expect(await suppressions(other.id)).toEqual(["bounce"]);
  });

  test("4.2.3: a falsy or absent is_subscribed never revokes consent", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const opted = new Date("2026-02-03T04:05:06Z");
    const c = await createContact(db.sql, ws.id, {
      is_subscribed: true,
      opt_in_timestamp: opted,
      opt_in_source: "Manual Consent",
      opt_in_ip: "192.0.2.1",
    });
    for (const value of [false, "false", "", "off", null, undefined]) {
      const res = await submit(form.id, { json: { email: c.email, is_subscribed: value } });
      expect(res.status).toBe(200);
    }
    expect(await contactByEmail(ws.id, c.email)).toMatchObject({
      is_subscribed: true,
      opt_in_timestamp: opted,
      opt_in_source: "Manual Consent",
      opt_in_ip: "192.0.2.1",
      unsubscribed_at: null,
    });
    expect(await db.sql`select 1 from consent_events where contact_id = ${c.id}`).toHaveLength(0);
  });
});

describe("spec 6.2: the form's automations", () => {
  test("6.2: form_submitted automations of the form run and are logged; another form's do not", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const other = await createForm(db.sql, ws.id);
    const [tag] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'Lead') returning id`;
    const [campaign] =
      await db.sql`insert into campaigns (workspace_id, name) values (${ws.id}, 'Welcome') returning id`;
    await db.sql`insert into automations ${db.sql([
      {
        workspace_id: ws.id,
        name: "tag",
        trigger_type: "form_submitted",
        form_id: form.id,
        action_type: "add_tag",
        action_config: db.sql.json({ tag_id: tag.id }),
      },
      {
        workspace_id: ws.id,
        name: "enroll",
        trigger_type: "form_submitted",
        form_id: form.id,
        action_type: "enroll_campaign",
        action_config: db.sql.json({ campaign_id: campaign.id }),
      },
      {
        workspace_id: ws.id,
        name: "other",
        trigger_type: "form_submitted",
        form_id: other.id,
        action_type: "create_task",
        action_config: db.sql.json({ title: "Nope" }),
      },
    ])}`;
    const res = await submit(form.id, { json: { email: "auto@example.test" } });
    const { contact_id } = await res.json();
    expect(await db.sql`select tag_id from contact_tags where contact_id = ${contact_id}`).toEqual([
      { tag_id: tag.id },
    ]);
    expect(
      await db.sql`select campaign_id, status from campaign_enrollments where contact_id = ${contact_id}`,
    ).toEqual([{ campaign_id: campaign.id, status: "active" }]);
    expect(await db.sql`select 1 from tasks where contact_id = ${contact_id}`).toHaveLength(0);
    const runs = await db.sql`
      select a.name, r.status, r.trigger_type, r.payload->>'form_id' as form_id
      from automation_runs r join automations a on a.id = r.automation_id
      where r.contact_id = ${contact_id} order by a.name`;
    expect(runs).toEqual([
      { name: "enroll", status: "succeeded", trigger_type: "form_submitted", form_id: form.id },
      { name: "tag", status: "succeeded", trigger_type: "form_submitted", form_id: form.id },
    ]);
  });
});
