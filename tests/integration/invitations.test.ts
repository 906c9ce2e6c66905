import { createHash } from "node:crypto";
import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { withService, withUser, type Db } from "@/lib/db/doors";
import { requestSignUp } from "@/lib/auth/request-sign-up";
import {
  acceptInvitation,
  INVITATION_INVALID,
  INVITATION_OTHER_EMAIL,
} from "@/lib/workspaces/accept-invitation";
import { currentWorkspace } from "@/lib/workspaces/current-workspace";
import { inviteMember } from "@/lib/workspaces/invite-member";
import { listInvitations } from "@/lib/workspaces/list-invitations";
import { listMemberships } from "@/lib/workspaces/list-memberships";
import { resendInvitation, revokeInvitation } from "@/lib/workspaces/manage-invitation";
import { MESSAGES } from "@/lib/workspaces/member-permissions";
import { setupTestDatabase } from "../helpers/db";
import { emailedToken } from "../helpers/account-links";
import {
  addMember as seedMember,
  createUser,
  createWorkspace,
  unique,
  type TestUser,
} from "../helpers/factories";

const db = setupTestDatabase();

const as =
  (user: TestUser) =>
  <T>(fn: (tx: Db) => Promise<T>): Promise<T> =>
    withUser(user.claims, fn);

async function rows(workspaceId: string): Promise<Record<string, string>> {
  const list = await db.sql`select user_id, role from workspace_members where workspace_id = ${workspaceId}`;
  return Object.fromEntries(list.map((r) => [r.user_id, r.role]));
}

/** Owner (or `by`) invites `email`; returns the token from the emailed link. */
async function invite(ws: { id: string; owner: TestUser }, email: string, role = "member", by = ws.owner) {
  const result = await as(by)((tx) =>
    inviteMember(tx, { workspaceId: ws.id, email, role: role as "member" }),
  );
  if (!("data" in result)) throw result.error;
  return { ...result.data, token: await emailedToken(db.sql, result.data.email, "/invitations/accept") };
}
const accept = (token: string, user: TestUser) =>
  withService((tx) => acceptInvitation(tx, { token, userId: user.id }));

describe("consent-less membership: membership only by accepting an invitation", () => {
  test("an uninvited user is not a member until accepting", async () => {
    const ws = await createWorkspace(db.sql);
    const person = await createUser(db.sql);
    const { token } = await invite(ws, person.email, "admin");
    expect((await rows(ws.id))[person.id]).toBeUndefined();
    expect(await as(person)(listMemberships)).toEqual([]);
    expect(await accept(token, person)).toEqual({ data: { workspaceId: ws.id, role: "admin" } });
    expect((await rows(ws.id))[person.id]).toBe("admin");
    const [inv] =
      await db.sql`select accepted_at, accepted_by from workspace_invitations where workspace_id = ${ws.id}`;
    expect(inv.accepted_by).toBe(person.id);
  });

  test("a pre-claimed email cannot join a workspace", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("cfo")}@victim.test`;
    // the attacker signs up first with the victim's address: no account comes of it
    await withService((tx) =>
      requestSignUp(tx, {
        email,
        password: "attacker-password",
        firstName: "",
        lastName: "",
        workspaceName: "X",
      }),
    );
    expect(await db.sql`select id from auth.users where email = ${email}`).toEqual([]);
    // an account for the address that was never confirmed (made before confirmation existed)
    const [legacy] = await db.sql`insert into auth.users (email) values (${email}) returning id`;
    await db.sql`insert into user_profiles (id, email) values (${legacy.id}, ${email})`;
    const attacker: TestUser = {
      id: legacy.id,
      email,
      claims: { sub: legacy.id, role: "authenticated", email },
    };
    const { token } = await invite(ws, email);
    expect((await rows(ws.id))[legacy.id]).toBeUndefined();
    // even holding the link, the unconfirmed account cannot accept it
    expect(await accept(token, attacker)).toEqual({
      error: new AppError("forbidden", INVITATION_OTHER_EMAIL),
    });
    expect((await rows(ws.id))[legacy.id]).toBeUndefined();
  });

  test("another account cannot accept someone else's invitation", async () => {
    const ws = await createWorkspace(db.sql);
    const invited = await createUser(db.sql);
    const other = await createUser(db.sql);
    const { token } = await invite(ws, invited.email);
    expect(await accept(token, other)).toEqual({ error: new AppError("forbidden", INVITATION_OTHER_EMAIL) });
    expect((await rows(ws.id))[other.id]).toBeUndefined();
    expect(await accept(token, invited)).toMatchObject({ data: { workspaceId: ws.id } });
  });

  test("an invitation is single-use", async () => {
    const ws = await createWorkspace(db.sql);
    const person = await createUser(db.sql);
    const { token } = await invite(ws, person.email);
    await accept(token, person);
    await db.sql`delete from workspace_members where workspace_id = ${ws.id} and user_id = ${person.id}`;
    expect(await accept(token, person)).toEqual({ error: new AppError("not_found", INVITATION_INVALID) });
    expect((await rows(ws.id))[person.id]).toBeUndefined();
  });

  test("an expired invitation cannot be accepted", async () => {
    const ws = await createWorkspace(db.sql);
    const person = await createUser(db.sql);
    const { token, invitationId } = await invite(ws, person.email);
    await db.sql`update workspace_invitations set expires_at = now() - interval '1 second' where id = ${invitationId}`;
    expect(await accept(token, person)).toEqual({ error: new AppError("not_found", INVITATION_INVALID) });
    expect((await rows(ws.id))[person.id]).toBeUndefined();
  });

  test("a revoked invitation cannot be accepted", async () => {
    const ws = await createWorkspace(db.sql);
    const person = await createUser(db.sql);
    const { token, invitationId } = await invite(ws, person.email);
    expect(await as(ws.owner)((tx) => revokeInvitation(tx, { workspaceId: ws.id, invitationId }))).toEqual({
      data: { email: person.email },
    });
    expect(await accept(token, person)).toEqual({ error: new AppError("not_found", INVITATION_INVALID) });
    expect((await rows(ws.id))[person.id]).toBeUndefined();
    expect(await as(ws.owner)((tx) => listInvitations(tx, { workspaceId: ws.id }))).toEqual({ data: [] });
  });

  test("resending issues a new link; the old one stops working", async () => {
    const ws = await createWorkspace(db.sql);
    const person = await createUser(db.sql);
    const { token: old, invitationId } = await invite(ws, person.email);
    await as(ws.owner)((tx) => resendInvitation(tx, { workspaceId: ws.id, invitationId }));
    const fresh = await emailedToken(db.sql, person.email, "/invitations/accept");
    expect(fresh).not.toBe(old);
    expect(await accept(old, person)).toEqual({ error: new AppError("not_found", INVITATION_INVALID) });
    expect(await accept(fresh, person)).toMatchObject({ data: { workspaceId: ws.id } });
  });

  test("the token is stored only as its digest; the members page lists the open invitation", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("new")}@example.test`;
    const { token, invitationId } = await invite(ws, email.toUpperCase(), "admin");
    const [row] =
      await db.sql`select email, role, token_hash from workspace_invitations where id = ${invitationId}`;
    expect(row).toEqual({
      email,
      role: "admin",
      token_hash: createHash("sha256").update(token).digest("hex"),
    });
    const listed = await as(ws.owner)((tx) => listInvitations(tx, { workspaceId: ws.id }));
    expect(listed).toMatchObject({ data: [{ id: invitationId, email, role: "admin", expired: false }] });
    // inviting an address creates no account, whether or not it has one
    expect(await db.sql`select id from auth.users where email = ${email}`).toEqual([]);
  });
});

describe("who may invite (spec 5.4's member rules)", () => {
  test("someone already a member gets a clear message and nothing is sent", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const result = await as(ws.owner)((tx) =>
      inviteMember(tx, { workspaceId: ws.id, email: member.email, role: "admin" }),
    );
    expect(result).toEqual({
      error: new AppError("conflict", MESSAGES.alreadyMember(member.email), { field: "email" }),
    });
    expect(await db.sql`select 1 from workspace_invitations where workspace_id = ${ws.id}`).toEqual([]);
  });

  test("only owners may invite an owner: an admin is refused, also by RLS", async () => {
    const ws = await createWorkspace(db.sql);
    const admin = await seedMember(db.sql, ws.id, "admin");
    const result = await as(admin)((tx) =>
      inviteMember(tx, { workspaceId: ws.id, email: "x@example.test", role: "owner" }),
    );
    expect(result).toEqual({ error: new AppError("forbidden", MESSAGES.ownerToInvite, { field: "role" }) });
    await expect(
      as(admin)(
        (
          tx,
        ) => tx`insert into workspace_invitations (workspace_id, email, role, token_hash, invited_by, expires_at)
                   values (${ws.id}, 'x@example.test', 'owner', ${"a".repeat(64)}, ${admin.id}, now() + interval '1 day')`,
      ),
    ).rejects.toMatchObject({ code: "42501" });
  });

  test("a member, or an admin of another workspace, cannot invite; members see no invitations", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await seedMember(db.sql, ws.id, "member");
    const outsider = (await createWorkspace(db.sql)).owner;
    await invite(ws, `${unique("p")}@example.test`);
    for (const user of [member, outsider])
      expect(
        await as(user)((tx) =>
          inviteMember(tx, { workspaceId: ws.id, email: "y@example.test", role: "member" }),
        ),
      ).toEqual({ error: new AppError("forbidden", MESSAGES.notAdmin) });
    expect(await as(member)((tx) => listInvitations(tx, { workspaceId: ws.id }))).toEqual({ data: [] });
  });

  test("bad input: a malformed email or an unknown role stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const bad = [
      [
        { email: "not-an-email", role: "member" },
        { error: new AppError("invalid", "Enter a valid email address.", { field: "email" }) },
      ],
      [
        { email: "a@example.test", role: "superuser" },
        { error: new AppError("invalid", "Choose a role: owner, admin or member.", { field: "role" }) },
      ],
    ] as const;
    for (const [input, error] of bad)
      expect(
        await as(ws.owner)((tx) =>
          inviteMember(tx, { workspaceId: ws.id, ...input, role: input.role as "member" }),
        ),
      ).toEqual(error);
    expect(await db.sql`select 1 from workspace_invitations where workspace_id = ${ws.id}`).toEqual([]);
  });
});

describe("a new user's first workspace is their own", () => {
  test("without a choice the workspace joined first is current, not one whose name sorts first", async () => {
    const own = await createWorkspace(db.sql, { name: "Zebra Studio" });
    const other = await createWorkspace(db.sql, { name: "!Acme" });
    const { token } = await invite(other, own.owner.email);
    await accept(token, own.owner);
    const memberships = await as(own.owner)(listMemberships);
    expect(memberships.map((m) => m.workspaceName)).toEqual(["!Acme", "Zebra Studio"]);
    expect(currentWorkspace(memberships, undefined)?.workspaceId).toBe(own.id);
    expect(currentWorkspace(memberships, other.id)?.workspaceId).toBe(other.id);
    expect(currentWorkspace(memberships, "not-mine")?.workspaceId).toBe(own.id);
  });
});
