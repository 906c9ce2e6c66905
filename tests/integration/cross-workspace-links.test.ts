import { describe, expect, test } from "vitest";
import { withService, withUser, type Db } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { addMember, unique, type TestUser } from "../helpers/factories";
import { createTenants } from "../helpers/rls";
import { buildRow, insertRow, keyOf, TABLES } from "../helpers/rows";

const db = setupTestDatabase();

// Spec 5.4: "Every table is limited to the rows of the caller's workspaces." A row of workspace
// B must not point at a row of workspace A (a 'complaint' suppression on A's contact would
// block it for good). Composite keys (workspace_id, x_id) make the database refuse it, whoever
// writes: a member of B (an admin for Admin+ tables) and the service role alike.
const SIGNED_IN_WRITER: Record<string, "member" | "admin" | null> = {
  contact_tags: "member",
  tasks: "member",
  notes: "member",
  company_contacts: "member",
  deals: "member",
  deal_payments: "member",
  appointment_external_attendees: "member",
  agreement_contacts: "member",
  transactions: "member",
  contact_suppressions: "member",
  campaigns: "member",
  campaign_enrollments: "member",
  notification_reads: "member",
  automations: "admin",
  duplicate_dismissals: "member",
  // written by the system only (spec 5.4 'system only', or not granted to members)
  broadcasts: null,
  consent_events: null,
  email_sends: null,
  campaign_versions: null,
  campaign_step_runs: null,
  campaign_segment_members: null,
  sending_domain_days: null,
  portal_links: null,
  portal_sessions: null,
  subscriptions: null,
  memberships: null,
  broadcast_variants: null,
  contact_topics: null,
  email_events: null,
  email_send_stats: null,
  form_submissions: null,
  pending_form_submissions: null,
  event_registrations: null,
  event_ticket_types: null,
  event_check_ins: null,
  notifications: null,
  automation_runs: null,
  form_daily_counts: null,
  webhook_deliveries: null,
};

const LINKS = Object.entries(TABLES).flatMap(([table, shape]) =>
  Object.entries(shape.links ?? {}).map(([column, parent]) => [table, column, parent] as const),
);

// Service-only tables (not in TABLES, which holds what members may write): their links, tested below.
const SERVICE_LINKS = [
  ["api_idempotency_keys", "api_key_id", "api_keys"],
  // written only by the database, from contacts.custom_fields (tests/integration/custom-field-values.test.ts)
  ["contact_field_values", "contact_id", "contacts"],
  ["contact_field_values", "field_id", "custom_fields"],
] as const;

type Door = (fn: (q: Db) => Promise<unknown>) => Promise<unknown>;

async function refusal(run: () => Promise<unknown>): Promise<{ code?: string; constraint?: string }> {
  try {
    await run();
    return {};
  } catch (e) {
    const { code, constraint_name } = e as { code?: string; constraint_name?: string };
    if (!code) throw e;
    return { code, constraint: constraint_name };
  }
}

describe("5.4: no row points at another workspace's row", () => {
  test("every composite workspace link in the schema is listed here (and so tested)", async () => {
    const keys = await db.sql`
      select c.conrelid::regclass::text as table, a.attname as column, c.confrelid::regclass::text as parent
      from pg_constraint c
      join pg_attribute a on a.attrelid = c.conrelid and a.attnum = any (c.conkey) and a.attname <> 'workspace_id'
      where c.contype = 'f' and c.connamespace = 'public'::regnamespace and cardinality(c.conkey) = 2
      order by 1, 2`;
    expect(keys.map((k) => `${k.table}.${k.column} -> ${k.parent}`)).toEqual(
      [...LINKS, ...SERVICE_LINKS].map(([t, c, p]) => `${t}.${c} -> ${p}`).sort(),
    );
    expect(Object.keys(SIGNED_IN_WRITER).sort()).toEqual([...new Set(LINKS.map(([t]) => t))].sort());
  });

  test.each(LINKS)("5.4 %s.%s cannot point at another workspace's %s", async (table, column, parent) => {
    const t = await createTenants(db.sql);
    const role = SIGNED_IN_WRITER[table];
    const writer: TestUser = role === "admin" ? t.b.owner : await addMember(db.sql, t.b.id, "member");
    // notification_reads are personal (least-privilege RLS)
    const own = table === "notification_reads" ? { user_id: writer.id } : {};
    const foreign = await insertRow(db.sql, parent, t.a);
    const doors: [string, Door][] = [["the service role", withService]];
    if (role) doors.unshift([`a ${role} of B`, (fn) => withUser(writer.claims, fn)]);
    for (const [who, door] of doors) {
      const cross = await buildRow(db.sql, table, t.b, { ...own, [column]: foreign.id });
      const refused = await refusal(() => door((q) => q`insert into ${q(table)} ${q(cross)}`));
      expect(refused, who).toEqual({ code: "23503", constraint: `${table}_workspace_id_${column}_fkey` });
      // the control: the same writer stores the row when it points at B's own parent
      const fine = await buildRow(db.sql, table, t.b, own);
      await door((q) => q`insert into ${q(table)} ${q(fine)}`);
    }
    // and an existing row of B cannot be re-pointed at A's row either
    const existing = await insertRow(db.sql, table, t.b, own);
    const moved = await refusal(() =>
      withService(
        (q) => q`update ${q(table)} t set ${q(column)} = ${foreign.id as string}
                 where to_jsonb(t) @> ${q.json(keyOf(table, existing))}`,
      ),
    );
    // consent_events is append-only: any update is refused before the key is checked
    const expected =
      table === "consent_events"
        ? { code: "P0001", constraint: undefined }
        : { code: "23503", constraint: `${table}_workspace_id_${column}_fkey` };
    expect(moved).toEqual(expected);
    const pointing =
      await db.sql`select count(*)::int as n from ${db.sql(table)} where ${db.sql(column)} = ${foreign.id as string}`;
    expect(pointing[0].n).toBe(0);
  });

  test("5.4 api_idempotency_keys.api_key_id cannot point at another workspace's api_keys, even for the service role", async () => {
    const t = await createTenants(db.sql);
    const keyOfA = await insertRow(db.sql, "api_keys", t.a);
    const keyOfB = await insertRow(db.sql, "api_keys", t.b);
    const answer = (apiKeyId: string) => ({
      api_key_id: apiKeyId,
      workspace_id: t.b.id,
      idempotency_key: unique("idem"),
      fingerprint: "a".repeat(64),
    });
    const refused = await refusal(() =>
      withService((q) => q`insert into api_idempotency_keys ${q(answer(keyOfA.id as string))}`),
    );
    expect(refused).toEqual({
      code: "23503",
      constraint: "api_idempotency_keys_workspace_id_api_key_id_fkey",
    });
    await withService((q) => q`insert into api_idempotency_keys ${q(answer(keyOfB.id as string))}`);
    const [{ n }] = await db.sql`
      select count(*)::int as n from api_idempotency_keys where api_key_id = ${keyOfA.id as string}`;
    expect(n).toBe(0);
  });

  test("5.4: a member of B cannot tag A's contact or suppress it, even leaving workspace_id to the database", async () => {
    const t = await createTenants(db.sql);
    const contactOfA = await insertRow(db.sql, "contacts", t.a);
    const tagOfB = await insertRow(db.sql, "tags", t.b);
    const asB = (fn: (q: Db) => Promise<unknown>) => withUser(t.b.owner.claims, fn);
    const tag = await refusal(() =>
      asB(
        (q) =>
          q`insert into contact_tags (contact_id, tag_id) values (${contactOfA.id as string}, ${tagOfB.id as string})`,
      ),
    );
    const suppress = await refusal(() =>
      asB(
        (q) =>
          q`insert into contact_suppressions (contact_id, reason) values (${contactOfA.id as string}, 'complaint')`,
      ),
    );
    // workspace_id is filled from A's contact, so RLS refuses the row before the key would
    expect({ tag: tag.code, suppress: suppress.code }).toEqual({ tag: "42501", suppress: "42501" });
    const rows = await db.sql`
      select (select count(*)::int from contact_tags where contact_id = ${contactOfA.id as string}) as tags,
             (select count(*)::int from contact_suppressions where contact_id = ${contactOfA.id as string}) as suppressions`;
    expect(rows[0]).toEqual({ tags: 0, suppressions: 0 });
  });
});
