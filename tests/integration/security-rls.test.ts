import { describe, expect, test } from "vitest";
import { withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";
import { attempt } from "../helpers/rls";

const db = setupTestDatabase();

async function connectedWorkspace() {
  const ws = await createWorkspace(db.sql);
  const member = await addMember(db.sql, ws.id, "member");
  const admin = await addMember(db.sql, ws.id, "admin");
  await db.sql`
    insert into ticketing_connections (workspace_id, access_token, organization_id, webhook_id, webhook_secret_hash)
    values (${ws.id}, 'eb-secret-token', 'org1', ${`wh_${ws.id}`}, ${"a".repeat(64)})`;
  return { ws, member, admin };
}

describe("RLS wider than the app needs: RLS grants members no more than the app needs", () => {
  test("a member cannot read the Eventbrite token through RLS", async () => {
    const { ws, member, admin } = await connectedWorkspace();
    for (const user of [member, admin, ws.owner]) {
      for (const read of [
        "select access_token from public.ticketing_connections",
        "select * from public.ticketing_connections",
        "select to_jsonb(t) from public.ticketing_connections t",
        "select webhook_secret_hash from public.ticketing_connections",
      ]) {
        const r = await attempt(() => withUser(user.claims, (q) => q.unsafe(read)));
        expect(r, read).toEqual({ ok: false, code: "42501" });
      }
    }
    // what the settings page shows is still readable
    const [row] = await withUser(
      member.claims,
      (q) =>
        q`select organization_id, webhook_id from public.ticketing_connections where workspace_id = ${ws.id}`,
    );
    expect(row).toEqual({ organization_id: "org1", webhook_id: `wh_${ws.id}` });
  });

  test("a member cannot write the consent ledger: a consent_events entry naming anyone, themself included, is refused", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const contact = await createContact(db.sql, ws.id);
    const insert = (actor: string | null) =>
      attempt(() =>
        withUser(
          member.claims,
          (q) => q`insert into consent_events (workspace_id, contact_id, action, flow, ip, actor_user_id)
                   values (${ws.id}, ${contact.id}, 'subscribed', 'manual_subscribe', '192.0.2.1', ${actor})`,
        ),
      );
    // only the consent paths write it, through the consent door (docs/decisions.md, "The database is the boundary")
    expect(await insert(ws.owner.id)).toEqual({ ok: false, code: "42501" });
    expect(await insert(null)).toEqual({ ok: false, code: "42501" });
    expect(await insert(member.id)).toEqual({ ok: false, code: "42501" });
    expect(await db.sql`select 1 from consent_events where contact_id = ${contact.id}`).toHaveLength(0);
  });

  test("members may insert only manual suppressions (a complaint can never be removed)", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "admin");
    const contact = await createContact(db.sql, ws.id);
    for (const reason of ["complaint", "bounce", "unsubscribe"]) {
      const r = await attempt(() =>
        withUser(
          member.claims,
          (q) => q`insert into contact_suppressions (workspace_id, contact_id, reason)
                   values (${ws.id}, ${contact.id}, ${reason})`,
        ),
      );
      expect(r, reason).toEqual({ ok: false, code: "42501" });
    }
    await withUser(
      member.claims,
      (q) => q`insert into contact_suppressions (workspace_id, contact_id, reason)
               values (${ws.id}, ${contact.id}, 'manual')`,
    );
    const rows = await db.sql`select reason from contact_suppressions where contact_id = ${contact.id}`;
    expect(rows.map((r) => r.reason)).toEqual(["manual"]);
  });
});
