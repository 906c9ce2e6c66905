import { describe, expect, test } from "vitest";
import { asService, TransactionAborted, withService, withServiceStatement, withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createUser, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

describe("lib/db doors", () => {
  test("withUser runs as authenticated with the member's claims; withService has no user", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id);
    const seen = await withUser(ws.owner.claims, async (tx) => {
      const [row] =
        await tx`select current_user as role, auth.uid() as uid, (select count(*)::int from contacts) as n`;
      return row;
    });
    expect(seen).toEqual({ role: "authenticated", uid: ws.owner.id, n: 1 });
    const stranger = await createUser(db.sql);
    const hidden = await withUser(
      stranger.claims,
      async (tx) => (await tx`select count(*)::int as n from contacts`)[0].n,
    );
    expect(hidden).toBe(0);
    const service = await withService(
      async (tx) => (await tx`select current_user as role, auth.uid() as uid`)[0],
    );
    expect(service).toEqual({ role: "service_role", uid: null });
  });

  test("asService runs as the service and gives a member's transaction its identity back; in the service's own it stays the service", async () => {
    const ws = await createWorkspace(db.sql);
    const who = (tx: Parameters<Parameters<typeof withService>[0]>[0]) =>
      tx`select current_user as role, auth.uid() as uid`.then((rows) => rows[0]);
    const inMember = await withUser(ws.owner.claims, async (tx) => [
      await asService(tx, () => who(tx)),
      await who(tx),
    ]);
    expect(inMember).toEqual([
      { role: "service_role", uid: null },
      { role: "authenticated", uid: ws.owner.id },
    ]);
    const inService = await withService(async (tx) => [await asService(tx, () => who(tx)), await who(tx)]);
    expect(inService).toEqual([
      { role: "service_role", uid: null },
      { role: "service_role", uid: null },
    ]);
  });

  test("a failing domain function rolls its whole transaction back", async () => {
    const ws = await createWorkspace(db.sql);
    await expect(
      withUser(ws.owner.claims, async (tx) => {
        await tx`insert into contacts (workspace_id, email) values (${ws.id}, 'rollback@example.test')`;
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    const [{ n }] =
      await db.sql`select count(*)::int as n from contacts where email = 'rollback@example.test'`;
    expect(n).toBe(0);
  });

  const countOf = async (email: string) =>
    (await db.sql`select count(*)::int as n from contacts where email = ${email}`)[0].n;

  test("a failed statement whose error the function swallows: nothing is committed, TransactionAborted", async () => {
    const ws = await createWorkspace(db.sql);
    await expect(
      withService(async (tx) => {
        await tx`insert into contacts (workspace_id, email) values (${ws.id}, 'swallowed@example.test')`;
        await tx`select 1 / 0`.catch(() => null);
        return "looks fine";
      }),
    ).rejects.toThrow(TransactionAborted);
    expect(await countOf("swallowed@example.test")).toBe(0);
  });

  test("withServiceStatement: the statement runs as service_role in its own committed transaction", async () => {
    const ws = await createWorkspace(db.sql);
    const rows = await withServiceStatement(
      (tx) => tx`
        with added as (
          insert into contacts (workspace_id, email) values (${ws.id}, 'one-statement@example.test') returning id
        )
        select current_user as role, auth.uid() as uid, (select count(*)::int from added) as added`,
    );
    expect([...rows]).toEqual([{ role: "service_role", uid: null, added: 1 }]);
    expect(await countOf("one-statement@example.test")).toBe(1);
    // interleaved with members' transactions on few connections, each sees its own identity
    const seen = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? withUser(ws.owner.claims, async (tx) => (await tx`select current_user as r, auth.uid() as u`)[0])
          : withServiceStatement((tx) => tx`select current_user as r, auth.uid() as u`).then((r) => r[0]),
      ),
    );
    seen.forEach((row, i) =>
      expect(row).toEqual(
        i % 2 === 0 ? { r: "authenticated", u: ws.owner.id } : { r: "service_role", u: null },
      ),
    );
  });

  test("withServiceStatement: a failing statement throws its own error and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    await expect(
      withServiceStatement(
        (tx) => tx`
          with added as (
            insert into contacts (workspace_id, email) values (${ws.id}, 'one-statement-fails@example.test') returning id
          )
          select 1 / (select count(*)::int - 1 from added) as boom`,
      ),
    ).rejects.toThrow(/division by zero/);
    expect(await countOf("one-statement-fails@example.test")).toBe(0);
    // the connection is usable afterwards (nothing left open on it)
    const [{ ok }] = await withServiceStatement((tx) => tx`select true as ok`);
    expect(ok).toBe(true);
  });

  test("savepoint: a failure inside rolls back to it, the transaction goes on and commits", async () => {
    const ws = await createWorkspace(db.sql);
    const outcome = await withService(async (tx) => {
      await tx`insert into contacts (workspace_id, email) values (${ws.id}, 'kept@example.test')`;
      const duplicate = await tx
        .savepoint(
          (sp) => sp`insert into contacts (workspace_id, email) values (${ws.id}, 'kept@example.test')`,
        )
        .then(
          () => "inserted",
          (error: { code?: string }) => error.code,
        );
      const nested = await tx.savepoint(async (sp) => {
        await sp`insert into contacts (workspace_id, email) values (${ws.id}, 'inner@example.test')`;
        await sp
          .savepoint(async (inner) => {
            await inner`insert into contacts (workspace_id, email) values (${ws.id}, 'dropped@example.test')`;
            throw new Error("inner");
          })
          .catch(() => null);
        return "ok";
      });
      return { duplicate, nested };
    });
    expect(outcome).toEqual({ duplicate: "23505", nested: "ok" });
    expect(await countOf("kept@example.test")).toBe(1);
    expect(await countOf("inner@example.test")).toBe(1);
    expect(await countOf("dropped@example.test")).toBe(0);
  });

  test("the identity is set before the function's first statement, and does not outlive its transaction", async () => {
    const ws = await createWorkspace(db.sql);
    // many transactions on few connections: each sees its own identity from its first statement
    const seen = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? withUser(ws.owner.claims, async (tx) => (await tx`select current_user as r, auth.uid() as u`)[0])
          : withService(async (tx) => (await tx`select current_user as r, auth.uid() as u`)[0]),
      ),
    );
    seen.forEach((row, i) =>
      expect(row).toEqual(
        i % 2 === 0 ? { r: "authenticated", u: ws.owner.id } : { r: "service_role", u: null },
      ),
    );
  });
});
