import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { createContact } from "../helpers/factories";
import { as, attempt, createTenants, observe, type Caller, type Op, type Outcome } from "../helpers/rls";
import { insertRow } from "../helpers/rows";

const db = setupTestDatabase();

/** Who may do what: 'members' of the workspace, 'admins' (Admin+: owner or admin), the
 * 'system' (service role) only, or 'none' (nobody but the service role, which bypasses RLS). */
type Rule = "members" | "admins" | "system" | "none";

// Spec 5.4, as written. contact_suppressions UPDATE is "not shown": nobody (a suppression is
// created or deleted, never edited). transactions UPDATE is limited to two columns (tested below).
const SPEC_5_4: Record<string, Record<Op, Rule>> = {
  forms: { select: "members", insert: "admins", update: "admins", delete: "admins" },
  form_submissions: { select: "members", insert: "system", update: "none", delete: "admins" },
  pending_form_submissions: { select: "members", insert: "system", update: "none", delete: "members" },
  contacts: { select: "members", insert: "members", update: "members", delete: "members" },
  transactions: { select: "members", insert: "members", update: "members", delete: "members" },
  contact_suppressions: { select: "members", insert: "members", update: "none", delete: "members" },
  events: { select: "members", insert: "admins", update: "admins", delete: "admins" },
  event_registrations: { select: "members", insert: "system", update: "system", delete: "admins" },
  ticketing_connections: { select: "members", insert: "admins", update: "admins", delete: "admins" },
};

const CALLERS: Caller[] = ["owner", "admin", "member", "outsider", "anon"];

/**
 * The outcome RLS semantics give: a permitted caller succeeds; a refused SELECT, UPDATE or
 * DELETE touches 0 rows; a refused INSERT, an operation the role has no grant for ('system',
 * 'none'), and anything by anon (no grants at all) fail with 42501.
 */
function expected(rule: Rule, op: Op, caller: Caller): Outcome {
  if (caller === "service") return "allowed";
  if (caller === "anon") return "42501";
  const permitted =
    (rule === "members" && caller !== "outsider") ||
    (rule === "admins" && (caller === "owner" || caller === "admin"));
  if (permitted) return "allowed";
  return op === "insert" || rule === "system" || rule === "none" ? "42501" : "0 rows";
}

const rows = Object.entries(SPEC_5_4).flatMap(([table, ops]) =>
  (Object.entries(ops) as [Op, Rule][]).flatMap(([op, rule]) =>
    [...CALLERS, ...(rule === "system" ? (["service"] as const) : [])].map(
      (caller) => [table, op.toUpperCase(), caller, expected(rule, op, caller), op] as const,
    ),
  ),
);

describe("spec 5.4 workspace access rules", () => {
  test.each(rows)("5.4 %s %s by %s: %s", async (table, _OP, caller, outcome, op) => {
    const t = await createTenants(db.sql);
    expect(await observe(db.sql, t, table, op, caller)).toBe(outcome);
  });

  test("5.4 transactions UPDATE: members change status and amount_refunded, no other column", async () => {
    const t = await createTenants(db.sql);
    const tx = await insertRow(db.sql, "transactions", t.a, { amount_paid: "10.00" });
    await withUser(
      t.member.claims,
      (q) =>
        q`update transactions set status = 'refunded', amount_refunded = 10 where id = ${tx.id as string}`,
    );
    for (const [column, value] of [
      ["currency", "eur"],
      ["amount_paid", "99.00"],
      ["workspace_id", t.b.id],
    ]) {
      const r = await attempt(() =>
        withUser(
          t.member.claims,
          (q) => q`update transactions set ${q(column)} = ${value} where id = ${tx.id as string}`,
        ),
      );
      expect(r, column).toEqual({ ok: false, code: "42501" });
    }
    const [row] =
      await db.sql`select status, amount_refunded, currency, amount_paid, workspace_id from transactions where id = ${tx.id as string}`;
    expect(row).toEqual({
      status: "refunded",
      amount_refunded: "10.00",
      currency: "usd",
      amount_paid: "10.00",
      workspace_id: t.a.id,
    });
  });

  test.each(["owner", "admin", "member"] as const)(
    "5.4 contact_suppressions DELETE by %s: removes a 'manual' suppression, never a 'complaint', 'bounce' or 'unsubscribe' one (docs/decisions.md, \"The database is the boundary\")",
    async (caller) => {
      const t = await createTenants(db.sql);
      const contact = await createContact(db.sql, t.a.id);
      await db.sql`insert into contact_suppressions (contact_id, reason)
                   values (${contact.id}, 'complaint'), (${contact.id}, 'bounce'), (${contact.id}, 'unsubscribe'),
                          (${contact.id}, 'manual')`;
      const r = await as(
        t,
        caller,
        (q) => q`delete from contact_suppressions where contact_id = ${contact.id} returning reason`,
      );
      expect(r.map((x) => x.reason)).toEqual(["manual"]);
      const left =
        await db.sql`select reason from contact_suppressions where contact_id = ${contact.id} order by reason`;
      expect(left.map((x) => x.reason)).toEqual(["bounce", "complaint", "unsubscribe"]);
    },
  );

  test("5.4: one email, two workspaces, two independent contacts; each workspace sees only its own", async () => {
    const t = await createTenants(db.sql);
    const a = await createContact(db.sql, t.a.id, { email: "same@example.test", first_name: "InA" });
    const b = await createContact(db.sql, t.b.id, { email: "same@example.test", first_name: "InB" });
    expect(a.id).not.toBe(b.id);
    const seen = (caller: Caller) =>
      as(
        t,
        caller,
        (q) => q`select id, first_name from contacts where email = 'same@example.test' order by 2`,
      );
    for (const caller of ["owner", "admin", "member"] as const) {
      expect(await seen(caller)).toEqual([{ id: a.id, first_name: "InA" }]);
    }
    expect(await seen("outsider")).toEqual([{ id: b.id, first_name: "InB" }]);
    // a member of B renaming "their" contact changes B's row only
    await as(
      t,
      "outsider",
      (q) => q`update contacts set first_name = 'Renamed' where email = 'same@example.test'`,
    );
    const both =
      await db.sql`select workspace_id, first_name from contacts where email = 'same@example.test'`;
    expect(Object.fromEntries(both.map((r) => [r.workspace_id, r.first_name]))).toEqual({
      [t.a.id]: "InA",
      [t.b.id]: "Renamed",
    });
  });
});
