import { describe, expect, test } from "vitest";
import { hashPassword } from "@/lib/auth/local-provider";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";

const members = await import("@/app/(dashboard)/settings/members/actions");
const workspace = await import("@/app/(dashboard)/workspace-actions");
const settings = await import("@/app/(dashboard)/settings/actions");
const account = await import("@/app/(dashboard)/settings/account-actions");
const apiKeys = await import("@/app/(dashboard)/settings/api-keys/actions");
const webhooks = await import("@/app/(dashboard)/settings/webhooks/actions");
const email = await import("@/app/(dashboard)/settings/email/actions");

const db = setupTestDatabase();

// Audit log: every member mutation writes one audit row, in its own transaction; a refused one
// writes none; no secret (API key, signing secret, password) ever reaches the log.

interface AuditRow {
  action: string;
  actor_id: string;
  workspace_id: string;
  target_type: string | null;
  target_id: string | null;
  before: unknown;
  after: unknown;
}

const auditOf = (workspaceId: string) =>
  db.sql<AuditRow[]>`
    select action, actor_id, workspace_id, target_type, target_id, before, after
    from audit_log where workspace_id = ${workspaceId} order by id`;

function form(fields: Record<string, string | string[]>): FormData {
  const out = new FormData();
  for (const [key, value] of Object.entries(fields))
    for (const v of Array.isArray(value) ? value : [value]) out.append(key, v);
  return out;
}

/** Runs a mutation and returns what it answered and the one audit row it wrote. */
async function oneRow<T>(workspaceId: string, run: () => Promise<T>): Promise<{ answer: T; row: AuditRow }> {
  const before = (await auditOf(workspaceId)).length;
  const answer = await run();
  const rows = await auditOf(workspaceId);
  expect(rows.length - before).toBe(1);
  return { answer, row: rows[rows.length - 1] };
}

/** A redirect (NEXT_REDIRECT) is how some actions answer; anything else fails the test. */
async function redirected(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => null,
    (e: unknown) => e as { digest?: string },
  );
  expect(error?.digest).toMatch(/^NEXT_REDIRECT/);
  return error!.digest!.split(";")[2];
}

describe("audit log: every member mutation writes one audit row", () => {
  test("members: invite, resend, change role, revoke and remove each write one row naming actor, workspace and target", async () => {
    const ws = await createWorkspace(db.sql);
    const colleague = await addMember(db.sql, ws.id, "member");
    signIn(ws.owner.claims);
    const actor = { actor_id: ws.owner.id, workspace_id: ws.id };

    const invited = await oneRow(ws.id, () =>
      members.inviteMemberAction({}, form({ email: "new.person@example.test", role: "admin" })),
    );
    expect(invited.answer).toMatchObject({ success: expect.stringContaining("invitation") });
    const [invitation] = await db.sql`select id from workspace_invitations where workspace_id = ${ws.id}`;
    expect(invited.row).toMatchObject({
      ...actor,
      action: "member.invited",
      target_type: "invitation",
      target_id: invitation.id,
      after: { role: "admin" },
    });
    expect(JSON.stringify(invited.row)).not.toContain("new.person@example.test");

    const resent = await oneRow(ws.id, () =>
      members.resendInvitationAction({}, form({ invitationId: invitation.id })),
    );
    expect(resent.row).toMatchObject({
      ...actor,
      action: "member.invitation_resent",
      target_id: invitation.id,
    });

    const revoked = await oneRow(ws.id, () =>
      members.revokeInvitationAction({}, form({ invitationId: invitation.id })),
    );
    expect(revoked.row).toMatchObject({
      ...actor,
      action: "member.invitation_revoked",
      target_id: invitation.id,
    });

    const role = await oneRow(ws.id, () =>
      members.changeRoleAction({}, form({ userId: colleague.id, role: "admin" })),
    );
    expect(role.answer).toEqual({ success: "Role changed to admin." });
    expect(role.row).toMatchObject({
      ...actor,
      action: "member.role_changed",
      target_type: "member",
      target_id: colleague.id,
      after: { role: "admin" },
    });

    const removed = await oneRow(ws.id, () => members.removeMemberAction({}, form({ userId: colleague.id })));
    expect(removed.answer).toEqual({ success: "Member removed." });
    expect(removed.row).toMatchObject({ ...actor, action: "member.removed", target_id: colleague.id });
  });

  test("a refused mutation (wrong role) keeps its old message and writes no row", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const other = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);

    expect(
      await members.inviteMemberAction({}, form({ email: "x@example.test", role: "member" })),
    ).toMatchObject({
      message: "Only owners and admins can manage members.",
    });
    expect(await members.removeMemberAction({}, form({ userId: other.id }))).toMatchObject({
      message: "Only owners and admins can manage members.",
    });
    expect(await apiKeys.issueApiKeyAction({}, form({ name: "Website" }))).toMatchObject({
      message: "Only owners and admins can manage API keys.",
    });
    expect(
      await webhooks.createEndpointAction(
        {},
        form({ url: "https://hooks.example.com/in", eventTypes: "contact.created", enabled: "on" }),
      ),
    ).toMatchObject({ message: "Only owners and admins can manage webhooks." });
    expect(
      await email.saveEmailSettingsAction(
        {},
        form({ subscribeFooterMessage: "Join us", subscribeFooterLinkText: "Subscribe", trackingUrl: "" }),
      ),
    ).toMatchObject({ message: "Only owners and admins can change the email settings." });
    expect(await settings.renameWorkspaceAction({}, form({ name: "Taken over" }))).toMatchObject({
      message: "Only owners and admins can change the workspace name.",
    });

    expect(await auditOf(ws.id)).toEqual([]);
    expect(await db.sql`select 1 from api_keys where workspace_id = ${ws.id}`).toEqual([]);
  });

  test("API keys and webhook secrets are answered once and never written to the log", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    const actor = { actor_id: ws.owner.id, workspace_id: ws.id };

    const issued = await oneRow(ws.id, () =>
      apiKeys.issueApiKeyAction({}, form({ name: "Website", scopes: "events:read" })),
    );
    const key = issued.answer.key!;
    expect(key.length).toBeGreaterThan(20);
    const [row] = await db.sql`select id from api_keys where workspace_id = ${ws.id}`;
    expect(issued.row).toMatchObject({
      ...actor,
      action: "api_key.created",
      target_type: "api_key",
      target_id: row.id,
      after: { name: "Website" },
    });
    const location = await redirected(() => apiKeys.revokeApiKeyAction({}, form({ keyId: row.id })));
    expect(location).toBe("/settings/api-keys?revoked=1");
    expect((await auditOf(ws.id)).at(-1)).toMatchObject({
      ...actor,
      action: "api_key.revoked",
      target_id: row.id,
    });

    const created = await oneRow(ws.id, () =>
      webhooks.createEndpointAction(
        {},
        form({
          url: "https://hooks.example.com/services/T0/B0/tokenInThePath",
          eventTypes: ["contact.created", "contact.updated"],
          enabled: "on",
        }),
      ),
    );
    const endpointId = created.answer.endpointId!;
    expect(created.answer.secret).toBeTruthy();
    expect(created.row).toMatchObject({
      ...actor,
      action: "webhook_endpoint.created",
      target_type: "webhook_endpoint",
      target_id: endpointId,
      after: { host: "hooks.example.com", eventTypes: ["contact.created", "contact.updated"], enabled: true },
    });
    const rotated = await oneRow(ws.id, () => webhooks.rotateSecretAction({}, form({ endpointId })));
    expect(rotated.answer.secret).toBeTruthy();
    expect(rotated.row).toMatchObject({ action: "webhook_endpoint.secret_rotated", target_id: endpointId });

    const log = JSON.stringify(await auditOf(ws.id));
    for (const secret of [key, created.answer.secret!, rotated.answer.secret!, "tokenInThePath"])
      expect(log).not.toContain(secret);
  });

  test("a password change is audited without either password", async () => {
    const ws = await createWorkspace(db.sql);
    const current = "the current password";
    await db.sql`update auth.users set encrypted_password = ${await hashPassword(current)} where id = ${ws.owner.id}`;
    signIn(ws.owner.claims);
    const changed = await oneRow(ws.id, () =>
      account.changePasswordAction(
        {},
        form({ currentPassword: current, newPassword: "a brand new password" }),
      ),
    );
    expect(changed.answer).toMatchObject({ success: expect.stringContaining("Your password was changed.") });
    expect(changed.row).toMatchObject({
      action: "account.password_changed",
      actor_id: ws.owner.id,
      target_type: "user",
      target_id: ws.owner.id,
    });
    const log = JSON.stringify(await auditOf(ws.id));
    expect(log).not.toContain(current);
    expect(log).not.toContain("a brand new password");

    // the wrong current password: refused beside its field, no row
    const before = (await auditOf(ws.id)).length;
    expect(
      await account.changePasswordAction(
        {},
        form({ currentPassword: "wrong", newPassword: "another new one" }),
      ),
    ).toMatchObject({ errors: { currentPassword: "Your current password is not correct." } });
    expect((await auditOf(ws.id)).length).toBe(before);
  });

  test("settings: workspace name and email settings write their row with before and after", async () => {
    const ws = await createWorkspace(db.sql, { name: "Old name" });
    signIn(ws.owner.claims);
    const renamed = await oneRow(ws.id, () => settings.renameWorkspaceAction({}, form({ name: "New name" })));
    expect(renamed.row).toMatchObject({
      action: "workspace.updated",
      target_type: "workspace",
      target_id: ws.id,
      before: { name: "Old name" },
      after: { name: "New name" },
    });
    const saved = await oneRow(ws.id, () =>
      email.saveEmailSettingsAction(
        {},
        form({
          subscribeFooterEnabled: "on",
          subscribeFooterMessage: "Join us",
          subscribeFooterLinkText: "Subscribe",
          trackingUrl: "https://links.example.com",
        }),
      ),
    );
    expect(saved.row).toMatchObject({
      action: "email_settings.updated",
      target_id: ws.id,
      after: { tracking_url: "https://links.example.com", subscribe_footer_enabled: true },
    });
  });

  test("leaving a workspace writes member.left before the access ends; the last owner cannot leave", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    const location = await redirected(() => workspace.leaveWorkspaceAction({}, form({})));
    expect(location).toBe("/contacts");
    expect(await db.sql`select 1 from workspace_members where user_id = ${member.id}`).toEqual([]);
    expect(await auditOf(ws.id)).toMatchObject([{ action: "member.left", actor_id: member.id }]);

    signIn(ws.owner.claims);
    expect(await workspace.leaveWorkspaceAction({}, form({}))).toMatchObject({
      message: expect.stringContaining("owner"),
    });
    expect(await auditOf(ws.id)).toHaveLength(1);
  });
});
