import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import {
  addMember,
  createContact,
  createWorkspace,
  type TestUser,
  type TestWorkspace,
} from "../helpers/factories";
import { signIn } from "../helpers/member-session";
import { historicRow } from "../helpers/payments";

const contacts = await import("@/app/(dashboard)/contacts/actions");
const contactPage = await import("@/app/(dashboard)/contacts/[id]/actions");
const privacy = await import("@/app/(dashboard)/contacts/[id]/privacy-actions");
const consent = await import("@/app/(dashboard)/consent/actions");
const tasks = await import("@/app/(dashboard)/tasks/actions");
const notifications = await import("@/app/(dashboard)/notifications/actions");
const backfill = await import("@/app/(dashboard)/payments/backfill-actions");
const refunds = await import("@/app/(dashboard)/payments/transaction-actions");
const { GET: privacyExport } = await import("@/app/api/contacts/[contactId]/privacy-export/route");
const { GET: consentLedger } = await import("@/app/api/consent/[contactId]/ledger/route");
const { GET: registrationsCsv } = await import("@/app/api/events/[eventId]/registrations.csv/route");

// Audit log: every member mutation of the contacts area (contacts, notes, tags, consent,
// suppressions, tasks, refunds, the backfill, erasure and the exports) writes exactly one
// audit row in its own transaction, naming the action, the member, the workspace and the
// target; a refused mutation writes none and changes nothing; no row holds a contact's address.

const db = setupTestDatabase();

interface AuditRow {
  id: string;
  workspace_id: string;
  actor_id: string | null;
  action: string;
  target_type: string | null;
  target_id: string | null;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

const lastAuditId = async () => {
  const [row] = await db.sql`select coalesce(max(id), 0)::text as id from audit_log`;
  return row.id as string;
};

/** The audit rows `fn` writes, in every workspace. A redirect (after the commit) is not a failure. */
async function auditOf(fn: () => Promise<unknown>): Promise<AuditRow[]> {
  const since = await lastAuditId();
  await fn().catch((error: unknown) => {
    if (!String((error as { digest?: string })?.digest ?? "").startsWith("NEXT_REDIRECT")) throw error;
  });
  return db.sql<AuditRow[]>`
    select id::text, workspace_id, actor_id, action, target_type, target_id, before, after
    from audit_log where id > ${since} order by id`;
}

async function expectOneRow(
  fn: () => Promise<unknown>,
  expected: { action: string; actor: TestUser; ws: TestWorkspace; targetId: string | null },
): Promise<AuditRow> {
  const rows = await auditOf(fn);
  expect(rows.map((r) => [r.action, r.actor_id, r.workspace_id, r.target_id])).toEqual([
    [expected.action, expected.actor.id, expected.ws.id, expected.targetId],
  ]);
  return rows[0];
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [key, value] of Object.entries(fields)) f.set(key, value);
  return f;
}

const get = (handler: typeof privacyExport, url: string, params: Record<string, string>) =>
  handler(new Request(url), { params: Promise.resolve(params) });

/** Every contact address the tests used: none may appear in any audit row. */
const addresses: string[] = [];

async function contactIn(ws: TestWorkspace, fields: Record<string, unknown> = {}) {
  const c = await createContact(db.sql, ws.id, { first_name: "Ada", last_name: "Lovelace", ...fields });
  addresses.push(c.email);
  return c;
}

const stateOf = async (contactId: string) => {
  const [row] = await db.sql`
    select c.email, c.first_name, c.source, c.is_subscribed, c.unsubscribed_at,
      (select count(*)::int from notes n where n.contact_id = c.id) as notes,
      (select count(*)::int from contact_tags t where t.contact_id = c.id) as tags,
      (select array_agg(s.reason order by s.reason) from contact_suppressions s where s.contact_id = c.id) as suppressions
    from contacts c where c.id = ${contactId}`;
  return row;
};

describe("audit log: every member mutation writes one audit row (contacts area)", () => {
  test("creating, editing, re-sourcing and deleting a contact: one row each, naming the contact, never its data", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims, { "x-forwarded-for": "203.0.113.9" });
    const email = `ada-${Date.now()}@example.test`;
    addresses.push(email);

    const created = await auditOf(() =>
      contacts.createContactAction({}, form({ email, firstName: "Ada", city: "London", isSubscribed: "on" })),
    );
    const [contact] =
      await db.sql`select id from contacts where workspace_id = ${ws.id} and email = ${email}`;
    expect(created.map((r) => [r.action, r.actor_id, r.workspace_id, r.target_id])).toEqual([
      ["contact.created", ws.owner.id, ws.id, contact.id],
    ]);
    expect(created[0].after).toEqual({ source: "manual", isSubscribed: true });

    const updated = await expectOneRow(
      () =>
        contacts.updateContactAction(contact.id, {}, form({ email, firstName: "Augusta", city: "Paris" })),
      { action: "contact.updated", actor: ws.owner, ws, targetId: contact.id },
    );
    expect(updated.after).toEqual({ changed: ["first_name", "city"] });

    const sourced = await expectOneRow(
      () => contacts.updateContactSourceAction(contact.id, {}, form({ source: "import", reason: "typo" })),
      { action: "contact.source_changed", actor: ws.owner, ws, targetId: contact.id },
    );
    expect(sourced.after).toEqual({ source: "import" });

    await expectOneRow(() => contacts.deleteContactAction(contact.id, {}, new FormData()), {
      action: "contact.deleted",
      actor: ws.owner,
      ws,
      targetId: contact.id,
    });
    expect(await db.sql`select 1 from contacts where id = ${contact.id}`).toHaveLength(0);
  });

  test("notes and tags: one row each; tagging twice or untagging what is not there writes none", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    const c = await contactIn(ws);

    await expectOneRow(() => contactPage.addNoteAction(c.id, {}, form({ text: `Called ${c.email}` })), {
      action: "contact.note_added",
      actor: member,
      ws,
      targetId: c.id,
    });
    const tagged = await expectOneRow(() => contactPage.attachTagAction(c.id, {}, form({ name: "VIP" })), {
      action: "contact.tagged",
      actor: member,
      ws,
      targetId: c.id,
    });
    const [tag] = await db.sql`select id from tags where workspace_id = ${ws.id} and name = 'VIP'`;
    expect(tagged.after).toEqual({ tagId: tag.id });
    expect(await auditOf(() => contactPage.attachTagAction(c.id, {}, form({ name: "vip" })))).toEqual([]);

    await expectOneRow(() => contactPage.detachTagAction(c.id, tag.id, new FormData()), {
      action: "contact.untagged",
      actor: member,
      ws,
      targetId: c.id,
    });
    expect(await auditOf(() => contactPage.detachTagAction(c.id, tag.id, new FormData()))).toEqual([]);
  });

  test("consent and suppressions: subscribe, unsubscribe, block and unblock write one row each", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const c = await contactIn(ws, { is_subscribed: false });

    const subscribed = await expectOneRow(
      () => consent.manualSubscribeAction(c.id, {}, form({ legalBasis: "Written Consent", attested: "on" })),
      { action: "contact.subscribed", actor: ws.owner, ws, targetId: c.id },
    );
    expect(subscribed.after).toEqual({ legalBasis: "Written Consent" });
    await expectOneRow(() => consent.unsubscribeAction(c.id, {}), {
      action: "contact.unsubscribed",
      actor: ws.owner,
      ws,
      targetId: c.id,
    });
    await expectOneRow(() => consent.addManualBlockAction(c.id, {}), {
      action: "contact.suppressed",
      actor: ws.owner,
      ws,
      targetId: c.id,
    });
    expect(await auditOf(() => consent.addManualBlockAction(c.id, {}))).toEqual([]);
    await expectOneRow(() => consent.removeSuppressionAction(c.id, {}, form({ reason: "manual" })), {
      action: "contact.unsuppressed",
      actor: ws.owner,
      ws,
      targetId: c.id,
    });
    expect(
      await auditOf(() => consent.removeSuppressionAction(c.id, {}, form({ reason: "manual" }))),
    ).toEqual([]);
    expect((await stateOf(c.id)).suppressions).toEqual(["unsubscribe"]);
  });

  test("a task completed, a refund recorded and reverted, the backfill started: one row each", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const [task] =
      await db.sql`insert into tasks (workspace_id, title) values (${ws.id}, 'Call back') returning id`;
    const completed = await expectOneRow(
      () => tasks.completeTaskAction(task.id, {}, form({ note: "done" })),
      {
        action: "task.updated",
        actor: ws.owner,
        ws,
        targetId: task.id,
      },
    );
    expect(completed.after).toEqual({ status: "completed" });

    const tx = await historicRow(db.sql, ws.id, `cs_test_audit${Date.now()}_prod_1`, 2000);
    const partial = await expectOneRow(
      () => refunds.recordRefundFormAction({}, form({ transactionId: tx, refundAmount: "5" })),
      { action: "transaction.refund_recorded", actor: ws.owner, ws, targetId: tx },
    );
    expect(partial.after).toEqual({ refundAmount: 5, runAutomations: false });
    await expectOneRow(() => refunds.revertRefundFormAction({}, form({ transactionId: tx })), {
      action: "transaction.refund_reverted",
      actor: ws.owner,
      ws,
      targetId: tx,
    });
    const recorded = await expectOneRow(
      () =>
        refunds.recordRefundFormAction(
          {},
          form({ transactionId: tx, refundAmount: "20", runAutomations: "on" }),
        ),
      { action: "transaction.refund_recorded", actor: ws.owner, ws, targetId: tx },
    );
    expect(recorded.after).toEqual({ refundAmount: 20, runAutomations: true });
    await expectOneRow(
      () => refunds.revertRefundFormAction({}, form({ transactionId: tx, workspaceId: ws.id })),
      {
        action: "transaction.refund_reverted",
        actor: ws.owner,
        ws,
        targetId: tx,
      },
    );

    await expectOneRow(() => backfill.startPaymentsBackfillAction(new FormData()), {
      action: "payments.backfill_started",
      actor: ws.owner,
      ws,
      targetId: ws.id,
    });
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    expect(await auditOf(() => backfill.startPaymentsBackfillAction(new FormData()))).toEqual([]);
  });

  test("marking notifications read is the member's own view, not audited", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const [n] = await db.sql`
      insert into notifications (workspace_id, type, title) values (${ws.id}, 'info', 'Hello') returning id`;
    expect(await auditOf(() => notifications.markNotificationReadAction(form({ id: n.id })))).toEqual([]);
    expect(await auditOf(() => notifications.markAllNotificationsReadAction(new FormData()))).toEqual([]);
    expect(await db.sql`select 1 from notification_reads where notification_id = ${n.id}`).toHaveLength(1);
  });

  test("the exports (privacy archive, consent ledger, registrations CSV) are audited; the privacy log records the export", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const c = await contactIn(ws);
    const exported = await expectOneRow(
      async () => {
        const res = await get(
          privacyExport,
          `http://crm.test/api/contacts/${c.id}/privacy-export?format=json`,
          {
            contactId: c.id,
          },
        );
        expect(res.status).toBe(200);
        expect((await res.json()).contact.id).toBe(c.id);
      },
      { action: "contact.exported", actor: ws.owner, ws, targetId: c.id },
    );
    expect(exported.after).toEqual({ contactId: c.id });
    expect(
      await db.sql`select kind, contact_id, actor_user_id from privacy_requests where workspace_id = ${ws.id}`,
    ).toEqual([{ kind: "export", contact_id: c.id, actor_user_id: ws.owner.id }]);

    await expectOneRow(
      async () =>
        expect(
          (await get(consentLedger, `http://crm.test/api/consent/${c.id}/ledger`, { contactId: c.id }))
            .status,
        ).toBe(200),
      { action: "consent.exported", actor: ws.owner, ws, targetId: c.id },
    );

    const [event] =
      await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Gala') returning id`;
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id) values (${ws.id}, ${event.id}, ${c.id})`;
    const csv = await expectOneRow(
      async () => {
        const res = await get(
          registrationsCsv,
          `http://crm.test/api/events/${event.id}/registrations.csv?search=${encodeURIComponent(c.email)}`,
          { eventId: event.id },
        );
        expect(res.status).toBe(200);
        expect(await res.text()).toContain(c.email);
      },
      { action: "event.registrations_exported", actor: ws.owner, ws, targetId: event.id },
    );
    expect(csv.after).toEqual({ searched: true, rows: 1 });
  });

  test("erasing a contact is audited without the typed address", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const c = await contactIn(ws);
    const erased = await expectOneRow(
      () => privacy.eraseContactAction(c.id, {}, form({ confirmation: c.email })),
      {
        action: "contact.erased",
        actor: ws.owner,
        ws,
        targetId: c.id,
      },
    );
    expect(erased.after).toEqual({ erased: true });
    expect(await db.sql`select 1 from contacts where id = ${c.id}`).toHaveLength(0);
  });

  test("a refused mutation (another workspace's contact, a malformed id, a wrong confirmation, a member's role) writes no row and changes nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const victim = await contactIn(other, { is_subscribed: true, source: "form" });
    const [task] =
      await db.sql`insert into tasks (workspace_id, title) values (${other.id}, 'Theirs') returning id`;
    const tx = await historicRow(db.sql, other.id, `cs_test_victim${Date.now()}_prod_1`, 2000);
    const [event] =
      await db.sql`insert into events (workspace_id, name) values (${other.id}, 'Theirs') returning id`;
    const own = await contactIn(ws);
    const before = await stateOf(victim.id);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(ws.owner.claims);

    const BAD = "-".repeat(36);
    const attempts: [string, () => Promise<unknown>][] = [];
    for (const id of [victim.id, BAD]) {
      attempts.push(
        [
          "update",
          () => contacts.updateContactAction(id, {}, form({ email: `x-${Date.now()}@example.test` })),
        ],
        ["source", () => contacts.updateContactSourceAction(id, {}, form({ source: "import", reason: "x" }))],
        ["delete", () => contacts.deleteContactAction(id, {}, new FormData())],
        ["note", () => contactPage.addNoteAction(id, {}, form({ text: "hello" }))],
        ["tag", () => contactPage.attachTagAction(id, {}, form({ name: "Stolen" }))],
        [
          "subscribe",
          () =>
            consent.manualSubscribeAction(id, {}, form({ legalBasis: "Written Consent", attested: "on" })),
        ],
        ["unsubscribe", () => consent.unsubscribeAction(id, {})],
        ["block", () => consent.addManualBlockAction(id, {})],
        ["unblock", () => consent.removeSuppressionAction(id, {}, form({ reason: "unsubscribe" }))],
        ["erase", () => privacy.eraseContactAction(id, {}, form({ confirmation: victim.email }))],
        [
          "export",
          () => get(privacyExport, `http://crm.test/api/contacts/${id}/privacy-export`, { contactId: id }),
        ],
        ["ledger", () => get(consentLedger, `http://crm.test/api/consent/${id}/ledger`, { contactId: id })],
      );
    }
    attempts.push(
      ["task", () => tasks.completeTaskAction(task.id, {}, new FormData())],
      ["task (malformed)", () => tasks.completeTaskAction(BAD, {}, new FormData())],
      [
        "refund (their workspace named)",
        () =>
          refunds.recordRefundFormAction(
            {},
            form({ transactionId: tx, refundAmount: "5", workspaceId: other.id }),
          ),
      ],
      [
        "refund (malformed)",
        () => refunds.recordRefundFormAction({}, form({ transactionId: BAD, refundAmount: "5" })),
      ],
      [
        "revert (their workspace named)",
        () => refunds.revertRefundFormAction({}, form({ transactionId: tx, workspaceId: other.id })),
      ],
      [
        "refund form",
        () => refunds.recordRefundFormAction({}, form({ transactionId: tx, refundAmount: "5" })),
      ],
      [
        "registrations",
        () =>
          get(registrationsCsv, `http://crm.test/api/events/${event.id}/registrations.csv`, {
            eventId: event.id,
          }),
      ],
      [
        "erase (wrong confirmation)",
        () => privacy.eraseContactAction(own.id, {}, form({ confirmation: "nope@example.test" })),
      ],
    );
    for (const [name, attempt] of attempts) {
      let result: unknown;
      expect(await auditOf(async () => (result = await attempt())), name).toEqual([]);
      // refused as such: a 404, or a refusal in the action's own shape
      if (result instanceof Response) expect(result.status, name).toBe(404);
      else expect((result as { success?: unknown }).success, name).toBeFalsy();
    }

    // refused beside its field: a manual subscribe without a legal basis
    let refused: unknown;
    const subscribeBlank = async () =>
      (refused = await consent.manualSubscribeAction(own.id, {}, new FormData()));
    expect(await auditOf(subscribeBlank)).toEqual([]);
    expect(refused).toMatchObject({ errors: { legalBasis: "Choose the legal basis for this consent." } });

    // a member's role: erasing and exporting are for owners and admins
    signIn(member.claims);
    expect(
      await auditOf(() => privacy.eraseContactAction(own.id, {}, form({ confirmation: own.email }))),
    ).toEqual([]);
    const res = await get(privacyExport, `http://crm.test/api/contacts/${own.id}/privacy-export`, {
      contactId: own.id,
    });
    expect(res.status).toBe(403);
    expect(
      await auditOf(() =>
        contacts.updateContactSourceAction(own.id, {}, form({ source: "import", reason: "x" })),
      ),
    ).toEqual([]);

    expect(await stateOf(victim.id)).toEqual(before);
    expect(await stateOf(own.id)).toMatchObject({ source: "manual" });
    expect(await db.sql`select status from tasks where id = ${task.id}`).toEqual([{ status: "open" }]);
    expect(await db.sql`select amount_refunded from transactions where id = ${tx}`).toEqual([
      { amount_refunded: "0.00" },
    ]);
    expect(
      await db.sql`select 1 from tags where workspace_id in (${ws.id}, ${other.id}) and name = 'Stolen'`,
    ).toEqual([]);
    expect(
      await db.sql`select 1 from privacy_requests where workspace_id in (${ws.id}, ${other.id})`,
    ).toEqual([]);
    expect(await db.sql`select 1 from audit_log where workspace_id = ${other.id}`).toEqual([]);
  });

  test("no audit row holds a contact's address", async () => {
    expect(addresses.length).toBeGreaterThan(5);
    const rows = await db.sql`select a::text as text from audit_log a`;
    expect(rows.length).toBeGreaterThan(20);
    const leaks = rows.filter((r) =>
      addresses.some((email) => r.text.toLowerCase().includes(email.toLowerCase())),
    );
    expect(leaks).toEqual([]);
  });
});
