import { describe, expect, test } from "vitest";
import { dismissDuplicate, restoreDuplicate } from "@/lib/contacts/merge/dismiss-duplicate";
import { findDuplicates } from "@/lib/contacts/merge/find-duplicates";
import {
  CONTACT_CREDENTIALS,
  CONTACT_DEPENDENTS,
  CONTACT_DERIVED,
} from "@/lib/contacts/merge/merge-dependents";
import { mergeContacts, type MergeContactsInput } from "@/lib/contacts/merge/merge-contacts";
import { withService, withUser } from "@/lib/db/doors";
import { createTopic } from "@/lib/consent/topics";
import { AppError } from "@/lib/errors/app-error";
import { webhookPayloadSchema } from "@/lib/webhooks/outbound/payloads";
import { setupTestDatabase } from "../helpers/db";
import {
  addMember,
  createContact,
  createWorkspace,
  type TestUser,
  type TestWorkspace,
} from "../helpers/factories";
import { typedValues } from "../helpers/custom-field-values";
import { insertRow, type Row } from "../helpers/rows";
import { signIn } from "../helpers/member-session";
import { milestone, waitFor, waitsOnLock } from "../helpers/wait-for";

const mergePage = await import("@/app/(dashboard)/contacts/[id]/merge/actions");
const duplicatesPage = await import("@/app/(dashboard)/contacts/duplicates/actions");

const db = setupTestDatabase();

type Input = Omit<MergeContactsInput, "actorUserId" | "choices"> & {
  choices?: MergeContactsInput["choices"];
};

/** Merges as `member` (the member's own transaction: RLS applies), throwing the refusal. */
async function merge(member: TestUser, input: Input) {
  return withUser(member.claims, async (tx) => {
    const result = await mergeContacts(tx, { choices: {}, actorUserId: member.id, ...input });
    if ("error" in result) throw result.error;
    return result.data;
  });
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return "merged";
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
}

/** Every (table, column) whose foreign key references contacts, from the catalog. */
async function foreignKeysToContacts(): Promise<string[]> {
  const rows = await db.sql<{ ref: string }[]>`
    select c.conrelid::regclass::text || '.' || a.attname as ref
    from pg_constraint c
    join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey)
    where c.contype = 'f' and c.confrelid = 'public.contacts'::regclass and a.attname <> 'workspace_id'
    order by 1`;
  return rows.map((r) => r.ref);
}

async function workspaceWithMember(): Promise<{ ws: TestWorkspace; member: TestUser }> {
  const ws = await createWorkspace(db.sql);
  return { ws, member: await addMember(db.sql, ws.id, "member") };
}

const countFor = async (table: string, contactId: string) =>
  (await db.sql`select count(*)::int as n from ${db.sql(table)} where contact_id = ${contactId}`)[0]
    .n as number;

describe("merging two contacts", () => {
  test("the merge handles every foreign key to contacts in the catalog (a new one fails here until it does)", async () => {
    const handled = [
      ...Object.entries(CONTACT_DEPENDENTS).flatMap(([table, d]) =>
        (d.columns ?? ["contact_id"]).map((column) => `${table}.${column}`),
      ),
      ...Object.entries(CONTACT_DERIVED).map(([table, column]) => `${table}.${column}`),
      ...Object.entries(CONTACT_CREDENTIALS).map(([table, column]) => `${table}.${column}`),
    ];
    expect(handled.sort()).toEqual(await foreignKeysToContacts());
  });

  test("merge two records of one person: picked fields win, B is deleted, a system note says what came from where", async () => {
    const { ws, member } = await workspaceWithMember();
    const a = await createContact(db.sql, ws.id, {
      first_name: "Ada",
      last_name: "Lovelace",
      phone: null,
      city: "London",
      birth_month: 12,
      birth_day: 10,
    });
    const b = await createContact(db.sql, ws.id, {
      first_name: "Augusta",
      last_name: "Lovelace",
      phone: "2025550143",
      city: "Paris",
      birth_month: 1,
      birth_day: 2,
    });
    const outcome = await merge(member, {
      workspaceId: ws.id,
      keepId: a.id,
      mergeId: b.id,
      choices: { email: "b", city: "a", birthday: "b" },
    });

    expect(outcome.fromB.sort()).toEqual(["birthday", "email", "phone"]);
    const [row] = await db.sql`select * from contacts where id = ${a.id}`;
    expect(row).toMatchObject({
      email: b.email,
      first_name: "Ada", // A's by default
      phone: "2025550143", // A's was empty: B's by default
      city: "London",
      birth_month: 1,
      birth_day: 2,
      updated_by: member.id,
    });
    expect(await db.sql`select id from contacts where id = ${b.id}`).toHaveLength(0);
    const notes = await db.sql`select content_text, created_by from notes where contact_id = ${a.id}`;
    expect(notes).toHaveLength(1);
    expect(notes[0].created_by).toBeNull();
    expect(notes[0].content_text).toContain(`Merged contact ${b.email} (${b.id})`);
    expect(notes[0].content_text).toContain("Taken from the merged contact: email, phone, birthday.");
  });

  test("spec 8.3 strictest consent per subscription topic: a topic B left is left on A, a topic only B is in moves to A", async () => {
    const { ws, member } = await workspaceWithMember();
    const topic = async (key: string, defaultOn: boolean) => {
      const made = await withService((tx) =>
        createTopic(tx, { workspaceId: ws.id, key, name: key, description: "", defaultOn }),
      );
      if ("error" in made) throw made.error;
      return made.data.id;
    };
    const newsletter = await topic("newsletter", true);
    const events = await topic("events", false);
    const a = await createContact(db.sql, ws.id, { is_subscribed: true }); // joins the default topic
    const b = await createContact(db.sql, ws.id, { is_subscribed: true });
    await db.sql`update contact_topics set subscribed = false where contact_id = ${b.id} and topic_id = ${newsletter}`;
    await db.sql`insert into contact_topics (workspace_id, contact_id, topic_id, subscribed)
                 values (${ws.id}, ${b.id}, ${events}, true)`;

    await merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: b.id });

    const rows = await db.sql`select topic_id, subscribed from contact_topics where contact_id = ${a.id}`;
    expect(Object.fromEntries(rows.map((r) => [r.topic_id, r.subscribed]))).toEqual({
      [newsletter]: false,
      [events]: true,
    });
    expect(await countFor("contact_topics", b.id)).toBe(0);
  });

  test("merge moves every dependent row and leaves nothing behind (every foreign key of the catalog)", async () => {
    const { ws, member } = await workspaceWithMember();
    const a = await createContact(db.sql, ws.id);
    const b = await createContact(db.sql, ws.id);
    const rows: [string, Row][] = [];
    for (const ref of await foreignKeysToContacts()) {
      const [table] = ref.split(".");
      if (table === "duplicate_dismissals") continue; // a pair: copied, not moved (its own test below)
      // kept from the contact's own row (the custom fields test below checks it)
      if (table in CONTACT_DERIVED) continue;
      // a contact's portal links and sessions go with it (its own test below)
      if (table in CONTACT_CREDENTIALS) continue;
      rows.push([table, await insertRow(db.sql, table, ws, { contact_id: b.id })]);
    }
    await insertRow(db.sql, "contact_suppressions", ws, { contact_id: b.id, reason: "complaint" });

    const outcome = await merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: b.id });

    const where: Record<string, string> = {};
    for (const [table, row] of rows) {
      const key = table === "contact_suppressions" ? { reason: String(row.reason) } : pick(row);
      const found = await db.sql`select contact_id from ${db.sql(table)} t
                                 where to_jsonb(t) @> ${db.sql.json(key)} and contact_id = ${a.id}`;
      where[table] = found.length === 1 ? "on A" : `${found.length} rows on A`;
      expect(await countFor(table, b.id), `${table} rows left on B`).toBe(0);
    }
    expect(where).toEqual(Object.fromEntries(rows.map(([t]) => [t, "on A"])));
    expect(outcome.moved.contact_suppressions.moved).toBe(2); // manual and complaint
    const [flag] = await db.sql`select email_suppressed from contacts where id = ${a.id}`;
    expect(flag.email_suppressed).toBe(true);
  });

  test("B's portal links and sessions are not moved to A: they go with B (docs/decisions.md, 'Portal sessions')", async () => {
    const { ws, member } = await workspaceWithMember();
    const a = await createContact(db.sql, ws.id);
    const b = await createContact(db.sql, ws.id);
    for (const table of Object.keys(CONTACT_CREDENTIALS))
      await insertRow(db.sql, table, ws, { contact_id: b.id });
    await merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: b.id });
    for (const table of Object.keys(CONTACT_CREDENTIALS)) {
      expect(await countFor(table, a.id), `${table} rows on A`).toBe(0);
      expect(await countFor(table, b.id), `${table} rows left on B`).toBe(0);
    }
  });

  test("a pending submission of B's address follows to A's, and endpoints subscribed to contact.merged get one delivery", async () => {
    const { ws, member } = await workspaceWithMember();
    const a = await createContact(db.sql, ws.id);
    const b = await createContact(db.sql, ws.id);
    const pending = await insertRow(db.sql, "pending_form_submissions", ws, { email: b.email });
    const hook = await insertRow(db.sql, "webhook_endpoints", ws, { event_types: ["contact.merged"] });

    await merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: b.id, choices: { email: "a" } });

    const [row] = await db.sql`select email from pending_form_submissions where id = ${pending.id as string}`;
    expect(row.email).toBe(a.email);
    const deliveries = await db.sql`select event_type, payload from webhook_deliveries
                                    where endpoint_id = ${hook.id as string}`;
    expect(deliveries).toHaveLength(1);
    const payload = webhookPayloadSchema("contact.merged").parse(deliveries[0].payload);
    expect(payload.data).toEqual({ id: a.id, merged_contact_id: b.id, merged_email: b.email });
  });

  test("custom fields: the member picks per key, a key only B holds comes along, the stored values stay valid", async () => {
    const { ws, member } = await workspaceWithMember();
    await db.sql`insert into custom_fields (workspace_id, key, label, field_type, options)
                 values (${ws.id}, 'plan', 'Plan', 'select', '{gold,silver}'),
                        (${ws.id}, 'nickname', 'Nickname', 'text', '{}'),
                        (${ws.id}, 'vip', 'VIP', 'boolean', '{}')`;
    const a = await createContact(db.sql, ws.id, { custom_fields: db.sql.json({ plan: "gold", vip: true }) });
    const b = await createContact(db.sql, ws.id, {
      custom_fields: db.sql.json({ plan: "silver", nickname: "Ada", vip: false }),
    });

    const outcome = await merge(member, {
      workspaceId: ws.id,
      keepId: a.id,
      mergeId: b.id,
      customFields: { plan: "b" },
    });

    const [row] = await db.sql`select custom_fields from contacts where id = ${a.id}`;
    expect(row.custom_fields).toEqual({ plan: "silver", nickname: "Ada", vip: true });
    expect(outcome.customFromB).toEqual(["nickname", "plan"]);
    // the typed index follows A's values; B's rows went with B
    expect(await typedValues(db.sql, a.id)).toEqual(["nickname=Ada", "plan=silver", "vip=true"]);
    expect(await typedValues(db.sql, b.id)).toEqual([]);
  });

  test("rows both contacts hold once (tag, company, RSVP, broadcast send, active enrollment, suppression) end as one on A", async () => {
    const { ws, member } = await workspaceWithMember();
    const a = await createContact(db.sql, ws.id);
    const b = await createContact(db.sql, ws.id);
    const tag = await insertRow(db.sql, "tags", ws);
    const company = await insertRow(db.sql, "companies", ws);
    const event = await insertRow(db.sql, "events", ws);
    const broadcast = await insertRow(db.sql, "broadcasts", ws);
    const campaign = await insertRow(db.sql, "campaigns", ws, { event_id: event.id });
    for (const c of [a, b]) {
      await insertRow(db.sql, "contact_tags", ws, { contact_id: c.id, tag_id: tag.id });
      await insertRow(db.sql, "company_contacts", ws, { contact_id: c.id, company_id: company.id });
      await insertRow(db.sql, "event_registrations", ws, {
        contact_id: c.id,
        event_id: event.id,
        status: c === a ? "cancelled" : "registered",
      });
      await insertRow(db.sql, "email_sends", ws, { contact_id: c.id, broadcast_id: broadcast.id });
      await insertRow(db.sql, "campaign_enrollments", ws, {
        contact_id: c.id,
        campaign_id: campaign.id,
        event_id: event.id,
      });
      await insertRow(db.sql, "contact_suppressions", ws, { contact_id: c.id, reason: "complaint" });
    }

    await merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: b.id });

    const count = (table: string) => countFor(table, a.id);
    expect({
      tags: await count("contact_tags"),
      companies: await count("company_contacts"),
      registrations: await count("event_registrations"),
      sends: await count("email_sends"),
      enrollments: await count("campaign_enrollments"),
      suppressions: await count("contact_suppressions"),
    }).toEqual({ tags: 1, companies: 1, registrations: 1, sends: 1, enrollments: 2, suppressions: 1 });
    // the live RSVP (B's) stays over A's cancelled one; one enrollment stays active
    const [rsvp] = await db.sql`select status from event_registrations where contact_id = ${a.id}`;
    expect(rsvp.status).toBe("registered");
    const active =
      await db.sql`select id from campaign_enrollments where contact_id = ${a.id} and status = 'active'`;
    expect(active).toHaveLength(1);
    // B's send of the same broadcast is kept for the broadcast's counts, without a contact
    const sends =
      await db.sql`select contact_id from email_sends where broadcast_id = ${broadcast.id as string}`;
    expect(sends.map((s) => s.contact_id).sort()).toEqual([a.id, null].sort());
  });

  test("3.3/8.3 consent: a withdrawal on either side wins, suppressions of either are kept, the ledger holds both histories plus the change", async () => {
    const { ws, member } = await workspaceWithMember();
    const optedIn = new Date("2026-01-01T00:00:00Z");
    const withdrew = new Date("2026-02-01T00:00:00Z");
    const a = await createContact(db.sql, ws.id, {
      is_subscribed: true,
      opt_in_timestamp: optedIn,
      opt_in_source: "Manual Consent",
    });
    const b = await createContact(db.sql, ws.id, { is_subscribed: false, unsubscribed_at: withdrew });
    await insertRow(db.sql, "consent_events", ws, { contact_id: a.id, action: "subscribed", flow: "manual" });
    await insertRow(db.sql, "consent_events", ws, { contact_id: b.id, action: "unsubscribed", flow: "link" });
    await insertRow(db.sql, "contact_suppressions", ws, { contact_id: b.id, reason: "unsubscribe" });
    await insertRow(db.sql, "contact_suppressions", ws, { contact_id: b.id, reason: "bounce" });

    const outcome = await merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: b.id });

    expect(outcome.consentChanged).toBe("unsubscribed");
    const [row] =
      await db.sql`select is_subscribed, unsubscribed_at, opt_in_source from contacts where id = ${a.id}`;
    expect(row).toEqual({ is_subscribed: false, unsubscribed_at: withdrew, opt_in_source: "Manual Consent" });
    const reasons =
      await db.sql`select reason from contact_suppressions where contact_id = ${a.id} order by reason`;
    expect(reasons.map((r) => r.reason)).toEqual(["bounce", "unsubscribe"]);
    const ledger = await db.sql`select action, flow, actor_user_id from consent_events
                                where contact_id = ${a.id} order by created_at, flow`;
    expect(ledger.map((e) => `${e.action}/${e.flow}`).sort()).toEqual([
      "subscribed/manual",
      "unsubscribed/contact_merge",
      "unsubscribed/link",
    ]);
    expect(ledger.find((e) => e.flow === "contact_merge")?.actor_user_id).toBe(member.id);
  });

  test("the consent ledger stays append-only outside the merge: re-pointing an entry is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const a = await createContact(db.sql, ws.id);
    const b = await createContact(db.sql, ws.id);
    const entry = await insertRow(db.sql, "consent_events", ws, { contact_id: b.id });
    const moved = db.sql`update consent_events set contact_id = ${a.id} where id = ${entry.id as string}`;
    await expect(moved).rejects.toThrow(/append-only/);
    const named = db.sql.begin(async (tx) => {
      await tx`select set_config('crm.contact_merge', ${`${b.id}>${a.id}`}, true)`;
      await tx`update consent_events set contact_id = ${a.id}, flow = 'forged' where id = ${entry.id as string}`;
    });
    await expect(named).rejects.toThrow(/append-only/);
  });

  test("refused across workspaces: an id of another workspace is not found and nothing changes", async () => {
    const { ws, member } = await workspaceWithMember();
    const other = await createWorkspace(db.sql);
    const a = await createContact(db.sql, ws.id);
    const foreign = await createContact(db.sql, other.id);
    await insertRow(db.sql, "notes", other, { contact_id: foreign.id });

    // the member's workspace with the other's contact, and the other workspace named outright
    expect(await refusal(merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: foreign.id }))).toBe(
      "not_found",
    );
    expect(await refusal(merge(member, { workspaceId: ws.id, keepId: foreign.id, mergeId: a.id }))).toBe(
      "not_found",
    );
    const b2 = await createContact(db.sql, other.id);
    expect(await refusal(merge(member, { workspaceId: other.id, keepId: b2.id, mergeId: foreign.id }))).toBe(
      "not_found",
    );
    expect(await refusal(merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: "not-a-uuid" }))).toBe(
      "not_found",
    );
    expect(await refusal(merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: a.id }))).toBe("invalid");
    const left = await db.sql`select id from contacts where id in (${a.id}, ${foreign.id}, ${b2.id})`;
    expect(left).toHaveLength(3);
    expect(await countFor("notes", foreign.id)).toBe(1);
  });

  test.runIf(process.env.TEST_DB === "postgres")(
    "concurrency: two opposite merges of the same pair at once: one merges, the other finds its contact gone",
    async () => {
      const { ws, member } = await workspaceWithMember();
      const a = await createContact(db.sql, ws.id);
      const b = await createContact(db.sql, ws.id);
      await insertRow(db.sql, "notes", ws, { contact_id: a.id });
      await insertRow(db.sql, "notes", ws, { contact_id: b.id });
      const outcomes = await Promise.all([
        refusal(merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: b.id })),
        refusal(merge(member, { workspaceId: ws.id, keepId: b.id, mergeId: a.id })),
      ]);
      expect(outcomes.sort()).toEqual(["merged", "not_found"]);
      const left = await db.sql`select id from contacts where id in (${a.id}, ${b.id})`;
      expect(left).toHaveLength(1);
      // both notes and the one system note are on the survivor
      expect(await countFor("notes", left[0].id)).toBe(3);
    },
  );

  test.runIf(process.env.TEST_DB === "postgres")(
    "concurrency: a merge waits for a write to B in flight, and a note added to B meanwhile cannot be left behind",
    async () => {
      const { ws, member } = await workspaceWithMember();
      const a = await createContact(db.sql, ws.id);
      const b = await createContact(db.sql, ws.id, { first_name: "Before" });
      let release = () => {};
      const held = new Promise<void>((resolve) => (release = resolve));
      const updated = milestone();
      const writer = withUser(member.claims, async (tx) => {
        await tx`update contacts set first_name = 'During' where id = ${b.id}`;
        updated.reached();
        await held;
      });
      try {
        await Promise.race([updated.passed, writer]); // the writer holds B's row
        const merging = merge(member, {
          workspaceId: ws.id,
          keepId: a.id,
          mergeId: b.id,
          choices: { first_name: "b" },
        });
        await waitFor(() => waitsOnLock(db.sql), "the merge waits on B's row lock");
        release();
        await writer;
        await merging;
      } finally {
        release();
      }
      const [row] = await db.sql`select first_name from contacts where id = ${a.id}`;
      expect(row.first_name).toBe("During"); // the merge read B after the write committed

      // a note inserted for B while a merge holds the lock fails once B is gone, never lands on B
      const c = await createContact(db.sql, ws.id);
      const d = await createContact(db.sql, ws.id);
      let go = () => {};
      const hold = new Promise<void>((resolve) => (go = resolve));
      const mergedUncommitted = milestone();
      const merging = withUser(member.claims, async (tx) => {
        const r = await mergeContacts(tx, {
          workspaceId: ws.id,
          keepId: c.id,
          mergeId: d.id,
          choices: {},
          actorUserId: member.id,
        });
        mergedUncommitted.reached();
        await hold;
        return r;
      });
      try {
        await Promise.race([mergedUncommitted.passed, merging]); // the merge holds both rows
        // settled into a value at once: the insert may fail before the merge's promise resolves, and a
        // rejection nobody holds yet is an unhandled one
        const late = withUser(
          member.claims,
          (tx) =>
            tx`insert into notes (workspace_id, contact_id, type, content, content_text) values (${ws.id}, ${d.id}, 'contact', '<p>x</p>', 'x')`,
        ).then(
          () => new Error("the note was stored"),
          (error: unknown) => error,
        );
        await waitFor(() => waitsOnLock(db.sql), "the note waits on the merge");
        go();
        await merging;
        expect(String(await late)).toMatch(/foreign key/);
      } finally {
        go();
      }
      expect(await countFor("notes", d.id)).toBe(0);
    },
  );
});

describe("the merge page's action", () => {
  const form = (fields: Record<string, string>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.set(k, v);
    return f;
  };
  const run = (promise: Promise<unknown>) =>
    promise.catch((error: unknown) => {
      if (!String((error as { digest?: string })?.digest ?? "").startsWith("NEXT_REDIRECT")) throw error;
      return "redirected";
    });

  test("one audit entry contact.merged on A naming B and what came from it (field names, no values); unconfirmed or foreign: nothing", async () => {
    const { ws, member } = await workspaceWithMember();
    const a = await createContact(db.sql, ws.id, { phone: "2025550143" });
    const b = await createContact(db.sql, ws.id, { phone: "2025550199" });
    const stranger = await workspaceWithMember();
    signIn(stranger.member.claims);
    const foreign = await run(mergePage.mergeContactsAction(a.id, b.id, {}, form({ confirm: "on" })));
    expect(foreign).toMatchObject({ code: "not_found" });
    signIn(member.claims);
    const unconfirmed = await run(mergePage.mergeContactsAction(a.id, b.id, {}, form({ phone: "b" })));
    expect(unconfirmed).toMatchObject({ code: "invalid" });
    expect(await db.sql`select id from contacts where id in (${a.id}, ${b.id})`).toHaveLength(2);

    const done = await run(
      mergePage.mergeContactsAction(a.id, b.id, {}, form({ phone: "b", confirm: "on" })),
    );
    expect(done).toBe("redirected");
    const audit = await db.sql`select action, actor_id, target_id, before, after from audit_log
                               where workspace_id = ${ws.id} and action like 'contact.%'`;
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      action: "contact.merged",
      actor_id: member.id,
      target_id: a.id,
      before: { merged_contact_id: b.id },
      after: { from_merged_contact: ["phone"], consent: "unchanged" },
    });
    expect(JSON.stringify(audit[0])).not.toContain("2025550199");
    const [row] = await db.sql`select phone from contacts where id = ${a.id}`;
    expect(row.phone).toBe("2025550199");
  });
});

describe("possible duplicates", () => {
  test("pairs: the same phone however written (spec 4.10 normalisation), or the same name with a similar email; never across workspaces", async () => {
    const { ws, member } = await workspaceWithMember();
    const other = await createWorkspace(db.sql);
    const phoneA = await createContact(db.sql, ws.id, { phone: "(202) 555-0143" });
    const phoneB = await createContact(db.sql, ws.id, { phone: "+1 202-555-0143" });
    await createContact(db.sql, other.id, { phone: "2025550143" });
    const nameA = await createContact(db.sql, ws.id, {
      first_name: "Jane",
      last_name: "Doe",
      email: "jane.doe@one.example",
    });
    const nameB = await createContact(db.sql, ws.id, {
      first_name: " jane ",
      last_name: "DOE",
      email: "janedoe@two.example",
    });
    // the same name with an unrelated email, and a short number, are no candidates
    await createContact(db.sql, ws.id, { first_name: "Jane", last_name: "Doe", email: "zq@three.example" });
    await createContact(db.sql, ws.id, { phone: "123" });
    await createContact(db.sql, ws.id, { phone: "123" });

    const { pairs, hasMore } = await withUser(member.claims, (tx) =>
      findDuplicates(tx, { workspaceId: ws.id }),
    );

    const seen = pairs.map((p) => ({ ids: [p.a.id, p.b.id].sort(), reasons: p.reasons }));
    expect(seen).toHaveLength(2);
    expect(seen).toContainEqual({ ids: [phoneA.id, phoneB.id].sort(), reasons: ["phone"] });
    expect(seen).toContainEqual({ ids: [nameA.id, nameB.id].sort(), reasons: ["name_email"] });
    expect(hasMore).toBe(false);
    // the older contact of a pair is offered as the one to keep
    expect(pairs.find((p) => p.reasons[0] === "phone")?.a.id).toBe(phoneA.id);
    // another workspace's member sees none of them
    const outsider = await addMember(db.sql, other.id, "member");
    const theirs = await withUser(outsider.claims, (tx) => findDuplicates(tx, { workspaceId: ws.id }));
    expect(theirs.pairs).toEqual([]);
  });
});

describe("not a duplicate", () => {
  /** Two contacts of `ws` sharing a phone: a candidate pair. */
  async function pairIn(wsId: string, phone = "2025550143") {
    const a = await createContact(db.sql, wsId, { phone });
    const b = await createContact(db.sql, wsId, { phone: `+1 ${phone}` });
    return { a, b };
  }
  const listed = async (member: TestUser, wsId: string) =>
    (await withUser(member.claims, (tx) => findDuplicates(tx, { workspaceId: wsId }))).pairs.map((p) =>
      [p.a.id, p.b.id].sort().join(),
    );
  const dismissals = (wsId: string) =>
    db.sql`select contact_id, other_contact_id, dismissed_by from duplicate_dismissals where workspace_id = ${wsId}`;

  test("a pair marked not a duplicate leaves the list, one row whichever order it is marked in; undo lists it again", async () => {
    const { ws, member } = await workspaceWithMember();
    const { a, b } = await pairIn(ws.id);
    const other = await pairIn(ws.id, "2025550199");
    expect(await listed(member, ws.id)).toHaveLength(2);

    const as = (contactId: string, otherContactId: string) =>
      withUser(member.claims, (tx) =>
        dismissDuplicate(tx, { workspaceId: ws.id, contactId, otherContactId, userId: member.id }),
      );
    expect(await as(b.id, a.id)).toMatchObject({ data: { changed: true } });
    expect(await as(a.id, b.id)).toMatchObject({ data: { changed: false } });
    const ids = [a.id, b.id].sort();
    expect(await dismissals(ws.id)).toEqual([
      { contact_id: ids[0], other_contact_id: ids[1], dismissed_by: member.id },
    ]);
    expect(await listed(member, ws.id)).toEqual([[other.a.id, other.b.id].sort().join()]);
    // the database holds one row per pair whoever writes it, in either order
    const code = await db.sql`insert into duplicate_dismissals (workspace_id, contact_id, other_contact_id)
                              values (${ws.id}, ${ids[1]}, ${ids[0]})`.then(
      () => "stored",
      (e: { code: string }) => e.code,
    );
    expect(code).toBe("23505");

    const undone = await withUser(member.claims, (tx) =>
      restoreDuplicate(tx, { workspaceId: ws.id, contactId: a.id, otherContactId: b.id }),
    );
    expect(undone).toMatchObject({ data: { changed: true } });
    expect(await dismissals(ws.id)).toEqual([]);
    expect(await listed(member, ws.id)).toHaveLength(2);
  });

  test("5.4: a member of another workspace cannot mark or unmark a pair (not found), nor name someone else as its author", async () => {
    const { ws, member } = await workspaceWithMember();
    const { a, b } = await pairIn(ws.id);
    const stranger = await workspaceWithMember();
    const pair = { contactId: a.id, otherContactId: b.id };
    // the stranger's own workspace as the action would pass it, and the victim's
    for (const workspaceId of [stranger.ws.id, ws.id]) {
      const result = await withUser(stranger.member.claims, (tx) =>
        dismissDuplicate(tx, { ...pair, workspaceId, userId: stranger.member.id }),
      );
      expect(refusalCode(result)).toBe("not_found");
    }
    expect(await dismissals(ws.id)).toEqual([]);

    await withUser(member.claims, (tx) =>
      dismissDuplicate(tx, { ...pair, workspaceId: ws.id, userId: member.id }),
    );
    const undo = await withUser(stranger.member.claims, (tx) =>
      restoreDuplicate(tx, { ...pair, workspaceId: ws.id }),
    );
    expect(refusalCode(undo)).toBe("not_found");
    expect(await dismissals(ws.id)).toHaveLength(1);
    // a member writing the row directly (PostgREST) as another member is refused
    const colleague = await addMember(db.sql, ws.id, "member");
    const c = await createContact(db.sql, ws.id);
    const forged = await withUser(
      member.claims,
      (tx) =>
        tx`insert into duplicate_dismissals (workspace_id, contact_id, other_contact_id, dismissed_by)
         values (${ws.id}, ${a.id}, ${c.id}, ${colleague.id})`,
    ).catch((e: { code: string }) => e.code);
    expect(forged).toBe("42501");
    expect(await dismissals(ws.id)).toHaveLength(1);
  });

  test("a merge copies B's marks to A (B's person is A's) and the pair A-B goes with B", async () => {
    const { ws, member } = await workspaceWithMember();
    const { a, b } = await pairIn(ws.id);
    const c = await createContact(db.sql, ws.id, { phone: "2025550143" });
    const d = await createContact(db.sql, ws.id, { phone: "2025550143" });
    const mark = (x: string, y: string) =>
      withUser(member.claims, (tx) =>
        dismissDuplicate(tx, { workspaceId: ws.id, contactId: x, otherContactId: y, userId: member.id }),
      );
    await mark(a.id, b.id);
    await mark(b.id, c.id);
    await mark(d.id, b.id);
    await mark(a.id, d.id); // A already has this one

    const outcome = await merge(member, { workspaceId: ws.id, keepId: a.id, mergeId: b.id });

    expect(outcome.moved.duplicate_dismissals).toEqual({ moved: 1, duplicates: 2 });
    const pairs = (await dismissals(ws.id)).map((r) => [r.contact_id, r.other_contact_id].join());
    expect(pairs.sort()).toEqual([[a.id, c.id].sort().join(), [a.id, d.id].sort().join()].sort());
    // A and C, A and D are no candidates any more; nothing else is listed
    expect(await listed(member, ws.id)).toEqual([[c.id, d.id].sort().join()]);
  });

  test("the page's actions: one audit entry per change naming the pair, none for a repeat or a refusal", async () => {
    const { ws, member } = await workspaceWithMember();
    const { a, b } = await pairIn(ws.id);
    const form = (fields: Record<string, string>) => {
      const f = new FormData();
      for (const [k, v] of Object.entries(fields)) f.set(k, v);
      return f;
    };
    const redirectOf = (promise: Promise<unknown>) =>
      promise.then(
        () => "no redirect",
        (error: unknown) => String((error as { digest?: string }).digest ?? error),
      );
    const pair = form({ contactId: b.id, otherContactId: a.id, page: "2" });
    const stranger = await workspaceWithMember();
    signIn(stranger.member.claims);
    expect(await redirectOf(duplicatesPage.dismissDuplicateAction(pair))).toContain("error=not_found");
    signIn(member.claims);
    const ids = [a.id, b.id].sort();
    expect(await redirectOf(duplicatesPage.dismissDuplicateAction(pair))).toContain(
      `/contacts/duplicates?dismissed=${ids[0]}.${ids[1]}&page=2`,
    );
    await redirectOf(duplicatesPage.dismissDuplicateAction(pair));
    expect(await redirectOf(duplicatesPage.restoreDuplicateAction(pair))).toContain("restored=1");
    const audit = await db.sql`select action, target_id, before, after from audit_log
                               where workspace_id = ${ws.id} order by created_at, action`;
    expect(audit).toEqual([
      {
        action: "contact.duplicate_dismissed",
        target_id: ids[0],
        before: null,
        after: { other_contact_id: ids[1], not_a_duplicate: true },
      },
      {
        action: "contact.duplicate_restored",
        target_id: ids[0],
        before: null,
        after: { other_contact_id: ids[1], not_a_duplicate: false },
      },
    ]);
    expect(await dismissals(ws.id)).toEqual([]);
  });
});

function refusalCode(result: object): string | null {
  return "error" in result ? (result.error as AppError).code : null;
}

/** The identifying columns of a fixture row: id, or a link table's pair. */
function pick(row: Row): Record<string, string> {
  if ("id" in row) return { id: String(row.id) };
  // a topic's state is the merge's to decide (strictest wins): the row is found by its topic
  const {
    contact_id: _contact,
    workspace_id: _ws,
    created_at: _at,
    subscribed: _s,
    changed_at: _c,
    ...rest
  } = row;
  return Object.fromEntries(Object.entries(rest).map(([k, v]) => [k, String(v)]));
}
