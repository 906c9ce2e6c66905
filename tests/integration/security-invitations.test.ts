import { describe, expect, test } from "vitest";
import { INVITATION_LIMITS, TOO_MANY_INVITATIONS } from "@/lib/workspaces/invitation-limits";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";

const members = await import("@/app/(dashboard)/settings/members/actions");

const db = setupTestDatabase();

function form(fields: Record<string, string>): FormData {
  const out = new FormData();
  for (const [key, value] of Object.entries(fields)) out.append(key, value);
  return out;
}

const invitationEmails = (workspaceId: string) =>
  db.sql<{ to_email: string; subject: string; text_body: string; html: string }[]>`
    select to_email, subject, text_body, html from email_sends
    where workspace_id = ${workspaceId} and subject like 'You are invited%' order by created_at`;

describe("invitations cannot be used to mail anyone from our sender", () => {
  test("an admin's invitations and resends are limited per inviter: past the limit nothing is stored or sent", async () => {
    const ws = await createWorkspace(db.sql);
    const [perInviter] = INVITATION_LIMITS.perInviter;
    signIn(ws.owner.claims);
    for (let i = 0; i < perInviter - 1; i++) {
      const sent = await members.inviteMemberAction(
        {},
        form({ email: `person${i}@example.test`, role: "member" }),
      );
      expect(sent.success).toBeTruthy();
    }
    const [invitation] =
      await db.sql`select id from workspace_invitations where workspace_id = ${ws.id} limit 1`;
    // a resend counts too: it is the last one allowed
    expect(
      (await members.resendInvitationAction({}, form({ invitationId: invitation.id }))).success,
    ).toBeTruthy();
    const refused = await members.inviteMemberAction(
      {},
      form({ email: "one-more@example.test", role: "member" }),
    );
    expect(refused.message).toBe(TOO_MANY_INVITATIONS);
    const resent = await members.resendInvitationAction({}, form({ invitationId: invitation.id }));
    expect(resent.message).toBe(TOO_MANY_INVITATIONS);
    expect(await invitationEmails(ws.id)).toHaveLength(perInviter);
    expect(await db.sql`select 1 from workspace_invitations where email = 'one-more@example.test'`).toEqual(
      [],
    );
  }, 120_000);

  test("a workspace's admins together are limited per workspace", async () => {
    const ws = await createWorkspace(db.sql);
    const [perWorkspace, windowSeconds] = INVITATION_LIMITS.perWorkspace;
    // the workspace's bucket already holds all but one invitation of its window
    await db.sql`select public.check_rate_limit(${`invite:workspace:${ws.id}`}, ${perWorkspace}, ${windowSeconds})
                 from generate_series(1, ${perWorkspace - 1})`;
    const admin = await addMember(db.sql, ws.id, "admin");
    signIn(admin.claims);
    expect(
      (await members.inviteMemberAction({}, form({ email: "a@example.test", role: "member" }))).success,
    ).toBeTruthy();
    signIn(ws.owner.claims);
    const refused = await members.inviteMemberAction({}, form({ email: "b@example.test", role: "member" }));
    expect(refused.message).toBe(TOO_MANY_INVITATIONS);
    expect((await invitationEmails(ws.id)).map((e) => e.to_email)).toEqual(["a@example.test"]);
  }, 60_000);

  test("a workspace named as a phishing message is quoted as a name, without its link, line breaks or length", async () => {
    const bait =
      "Security team\nYour account is locked: sign in at https://evil.example/login or www.evil.example " +
      "x".repeat(80);
    const ws = await createWorkspace(db.sql, { name: bait });
    signIn(ws.owner.claims);
    expect(
      (await members.inviteMemberAction({}, form({ email: "victim@example.test", role: "member" }))).success,
    ).toBeTruthy();
    const [mail] = await invitationEmails(ws.id);
    expect(mail.subject).toMatch(
      /^You are invited to join the workspace “Security team Your account is locked: sign in at or/,
    );
    expect(mail.subject).not.toContain("\n");
    for (const body of [mail.subject, mail.text_body, mail.html]) {
      expect(body).not.toContain("evil.example");
      expect(body).not.toContain("x".repeat(61));
    }
    expect(mail.text_body).toContain("The workspace's name was chosen by its members, not by us.");
  });
});
