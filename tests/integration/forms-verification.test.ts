import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";
import { verificationUrl } from "@/lib/forms/verification-email";
import { newVerificationToken } from "@/lib/forms/verification-token";
import { createForm, openVerifyLink, storedCounts, submit, verificationLink } from "../helpers/forms";

const db = setupTestDatabase();

async function stagedFor(formId: string, contactFields: Record<string, unknown> = {}) {
  const [form] = await db.sql`select workspace_id from forms where id = ${formId}`;
  const c = await createContact(db.sql, form.workspace_id, {
    first_name: "Ada",
    last_name: "Byron",
    phone: "2025550143",
    ...contactFields,
  });
  return c;
}

describe("spec 4.2.2 A: double opt-in for an existing contact", () => {
  test("4.2.2 A: the payload is staged under a token digest, a verification email is sent, the contact is unchanged", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const c = await stagedFor(form.id);
    const before = (await db.sql`select * from contacts where id = ${c.id}`)[0];
    const payload = { email: c.email.toUpperCase(), first_name: "Eve", is_subscribed: "on" };
    const res = await submit(form.id, { json: payload, ip: "198.51.100.9" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ success: true, pending_verification: true });

    const [pending] = await db.sql`
      select email, payload, token, host(ip_address) as ip, expires_at - created_at as lifetime
      from pending_form_submissions where form_id = ${form.id}`;
    expect(pending).toMatchObject({ email: c.email, payload, ip: "198.51.100.9" });
    expect(pending.token).toMatch(/^[0-9a-f]{64}$/);
    expect((await db.sql`select ${pending.lifetime}::interval = interval '24 hours' as ok`)[0].ok).toBe(true);

    const [mail] =
      await db.sql`select to_email, kind, status, contact_id, html from email_sends where workspace_id = ${ws.id}`;
    expect(mail).toMatchObject({
      to_email: c.email,
      kind: "transactional",
      status: "outbox",
      contact_id: c.id,
    });
    const link = await verificationLink(db.sql, c.email);
    expect(link).toMatch(/\/api\/forms\/verify\?token=[A-Za-z0-9_-]{43}$/);
    expect(link).not.toContain(pending.token);

    expect((await db.sql`select * from contacts where id = ${c.id}`)[0]).toEqual(before);
    expect(await storedCounts(db.sql, ws.id)).toMatchObject({ submissions: 0, notes: 0, pending: 1 });
  });

  test("4.2.2 A: with require_verification false the existing contact goes through path B instead", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const c = await stagedFor(form.id);
    const res = await submit(form.id, { json: { email: c.email } });
    expect(await res.json()).toEqual({ success: true, contact_id: c.id });
    expect(await storedCounts(db.sql, ws.id)).toMatchObject({ pending: 0, emails: 0, submissions: 1 });
  });
});

describe("spec 4.3: GET /api/forms/verify", () => {
  test("4.3: opening the link applies the payload (changed fields win, audited), consent, a 'verified_email' row and automations", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const [tag] =
      await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'Confirmed') returning id`;
    await db.sql`insert into automations (workspace_id, name, trigger_type, form_id, action_type, action_config)
                 values (${ws.id}, 'tag', 'form_submitted', ${form.id}, 'add_tag', ${db.sql.json({ tag_id: tag.id })})`;
    const c = await stagedFor(form.id, { unsubscribed_at: new Date("2026-01-01"), city: null });
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'unsubscribe')`;
    const payload = {
      email: c.email,
      first_name: "Eve",
      phone: "+1 (202) 555-0143",
      city: "Leeds",
      is_subscribed: true,
      message: "Moved house",
    };
    await submit(form.id, { json: payload, ip: "198.51.100.10" });

    const res = await openVerifyLink(await verificationLink(db.sql, c.email));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toMatch(/\/verified$/);

    const [row] = await db.sql`select * from contacts where id = ${c.id}`;
    expect(row).toMatchObject({
      first_name: "Eve",
      last_name: "Byron",
      phone: "2025550143",
      city: "Leeds",
      is_subscribed: true,
      unsubscribed_at: null,
      opt_in_source: form.id,
      opt_in_ip: "198.51.100.10",
    });
    expect(await db.sql`select reason from contact_suppressions where contact_id = ${c.id}`).toHaveLength(0);
    const notes =
      await db.sql`select content_text, created_by from notes where contact_id = ${c.id} order by created_at`;
    const audit = notes.find((n) => n.content_text.includes('First name: "Ada" → "Eve"'));
    expect(audit).toMatchObject({ created_by: null });
    expect(notes.some((n) => n.content_text.includes("Phone"))).toBe(false);
    expect(notes.some((n) => n.content_text.includes("Moved house"))).toBe(true);
    const [submission] = await db.sql`
      select contact_id, payload, submission_type, host(ip_address) as ip from form_submissions where form_id = ${form.id}`;
    expect(submission).toEqual({
      contact_id: c.id,
      payload,
      submission_type: "verified_email",
      ip: "198.51.100.10",
    });
    expect(await db.sql`select tag_id from contact_tags where contact_id = ${c.id}`).toEqual([
      { tag_id: tag.id },
    ]);
    expect(await db.sql`select status from automation_runs where contact_id = ${c.id}`).toEqual([
      { status: "succeeded" },
    ]);
    expect(await db.sql`select 1 from pending_form_submissions where form_id = ${form.id}`).toHaveLength(0);
  });

  test("4.2.2 A: a newer submission of the same email replaces the staged one; only the newest link works", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const c = await stagedFor(form.id);
    await submit(form.id, { json: { email: c.email, first_name: "Older" } });
    const older = await verificationLink(db.sql, c.email);
    await submit(form.id, { json: { email: c.email, first_name: "Newer" } });
    const newer = await verificationLink(db.sql, c.email);
    expect(await db.sql`select 1 from pending_form_submissions where form_id = ${form.id}`).toHaveLength(1);
    expect((await openVerifyLink(older)).status).toBe(404);
    expect((await openVerifyLink(newer)).status).toBe(303);
    expect((await db.sql`select first_name from contacts where id = ${c.id}`)[0].first_name).toBe("Newer");
  });

  test("4.3: a token is single-use: the second open answers 404 and applies nothing; two racing opens apply once", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const c = await stagedFor(form.id);
    await submit(form.id, { json: { email: c.email, first_name: "Eve" } });
    const link = await verificationLink(db.sql, c.email);
    expect((await openVerifyLink(link)).status).toBe(303);
    const again = await openVerifyLink(link);
    expect(again.status).toBe(404);
    expect(again.headers.get("content-type")).toContain("text/html");
    expect(await again.text()).toContain("This link is not valid");

    await submit(form.id, { json: { email: c.email, first_name: "Zoe" } });
    const second = await verificationLink(db.sql, c.email);
    const statuses = (await Promise.all([openVerifyLink(second), openVerifyLink(second)])).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual([303, 404]);
    const [{ n }] = await db.sql`select count(*)::int as n from form_submissions where form_id = ${form.id}`;
    expect(n).toBe(2);
  });

  test("4.3 / 8.1: a token expires 24 hours after creation: 410 page and nothing applied; just before, it works", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const c = await stagedFor(form.id);
    await submit(form.id, { json: { email: c.email, first_name: "Late" } });
    const late = await verificationLink(db.sql, c.email);
    await db.sql`update pending_form_submissions
                 set created_at = now() - interval '24 hours 1 second', expires_at = now() - interval '1 second'
                 where form_id = ${form.id}`;
    const expired = await openVerifyLink(late);
    expect(expired.status).toBe(410);
    expect(await expired.text()).toContain("This link has expired");
    expect((await db.sql`select first_name from contacts where id = ${c.id}`)[0].first_name).toBe("Ada");
    expect(await storedCounts(db.sql, ws.id)).toMatchObject({ submissions: 0 });

    await submit(form.id, { json: { email: c.email, first_name: "OnTime" } });
    const onTime = await verificationLink(db.sql, c.email);
    await db.sql`update pending_form_submissions
                 set created_at = now() - interval '23 hours 59 minutes', expires_at = now() + interval '1 minute'
                 where form_id = ${form.id}`;
    expect((await openVerifyLink(onTime)).status).toBe(303);
    expect((await db.sql`select first_name from contacts where id = ${c.id}`)[0].first_name).toBe("OnTime");
  });

  test("4.3: an unknown or malformed token answers a readable 404 page", async () => {
    for (const url of [
      "http://localhost:3000/api/forms/verify?token=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      "http://localhost:3000/api/forms/verify?token=' or 1=1 --",
      "http://localhost:3000/api/forms/verify",
    ]) {
      const res = await openVerifyLink(url);
      expect(res.status).toBe(404);
      expect(await res.text()).toContain("<h1>This link is not valid</h1>");
    }
  });

  test("4.3: success redirects to the form's success URL when it has one", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, {
      success_redirect_url: "https://shop.example.com/welcome",
    });
    const c = await stagedFor(form.id);
    const staged = await submit(form.id, { json: { email: c.email } });
    expect(staged.status).toBe(302);
    const res = await openVerifyLink(await verificationLink(db.sql, c.email));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe("https://shop.example.com/welcome");
  });

  test("3.3: verification never clears a complaint suppression", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const c = await stagedFor(form.id);
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'complaint'), (${c.id}, 'bounce')`;
    // No verification email reaches this address (hard suppressions), so the row is staged by hand.
    const { token, digest } = newVerificationToken();
    await db.sql`insert into pending_form_submissions (workspace_id, form_id, email, payload, token)
                 values (${ws.id}, ${form.id}, ${c.email}, ${db.sql.json({ email: c.email, is_subscribed: true })}, ${digest})`;
    const res = await openVerifyLink(verificationUrl(token));
    expect(res.status).toBe(303);
    expect((await db.sql`select is_subscribed from contacts where id = ${c.id}`)[0].is_subscribed).toBe(true);
    expect(await db.sql`select reason from contact_suppressions where contact_id = ${c.id}`).toEqual([
      { reason: "complaint" },
    ]);
  });

  test("8.3: the verification email to a hard-suppressed contact is skipped and logged; the submission stays staged", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id);
    const c = await stagedFor(form.id);
    await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, 'bounce')`;
    const res = await submit(form.id, { json: { email: c.email, is_subscribed: true } });
    expect(await res.json()).toEqual({ success: true, pending_verification: true });
    const [mail] = await db.sql`select status, skip_reason from email_sends where contact_id = ${c.id}`;
    expect(mail).toEqual({ status: "skipped", skip_reason: "bounce suppression" });
    expect(await storedCounts(db.sql, ws.id)).toMatchObject({ pending: 1, submissions: 0 });
    expect((await db.sql`select is_subscribed from contacts where id = ${c.id}`)[0].is_subscribed).toBe(
      false,
    );
  });
});
