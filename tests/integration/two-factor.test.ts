import { describe, expect, test } from "vitest";
import type { SecurityState } from "@/components/two-factor/types";
import { createLocalUser } from "@/lib/auth/local-provider";
import { verifySessionToken, signSessionToken } from "@/lib/auth/tokens";
import { TOO_MANY_ATTEMPTS } from "@/lib/auth/rate-limits";
import { withService, withUser, type Claims } from "@/lib/db/doors";
import { AppError } from "@/lib/errors/app-error";
import { confirmEnrolment, startEnrolment } from "@/lib/two-factor/enrol-two-factor";
import { secondStepFlow, STEP_UP_NOT_VALID, stepUpFlow } from "@/lib/two-factor/flows/second-factor-flows";
import type { PendingSignIn } from "@/lib/two-factor/pending-sign-in";
import { STEP_UP_WINDOW_SECONDS } from "@/lib/two-factor/step-up";
import { TOTP_PERIOD_SECONDS, totpCode } from "@/lib/two-factor/totp";
import { CODE_NOT_VALID, verifySecondFactor } from "@/lib/two-factor/verify-second-factor";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, unique, type TestUser } from "../helpers/factories";
import { issuedClaims, signIn } from "../helpers/member-session";

process.env.AUTH_SECRET ??= "test-secret-that-is-at-least-32-characters-long";

const auth = await import("@/app/(auth)/actions");
const security = await import("@/app/account/security/actions");
const workspaceSecurity = await import("@/app/(dashboard)/settings/security/actions");
const members = await import("@/app/(dashboard)/settings/members/actions");
const apiKeys = await import("@/app/(dashboard)/settings/api-keys/actions");
const webhooks = await import("@/app/(dashboard)/settings/webhooks/actions");
const privacy = await import("@/app/(dashboard)/contacts/[id]/privacy-actions");
const { GET: privacyExport } = await import("@/app/api/contacts/[contactId]/privacy-export/route");
const tags = await import("@/app/(dashboard)/contacts/tags/actions");
const account_ = await import("@/app/(dashboard)/settings/account-actions");
const { GET: segmentExport } = await import("@/app/api/segments/[segmentId]/contacts.csv/route");
const { GET: auditExport } = await import("@/app/api/audit/export/route");

// A second factor (docs/decisions.md "A second factor"): TOTP
// with recovery codes at sign-in, a workspace's requirement, and step-up before dangerous actions.
const db = setupTestDatabase();
const password = "correct horse battery";
const seconds = () => Math.floor(Date.now() / 1000);
/** Every refused code reads the same, beside the code field; a refused step-up, beside the secret. */
const CODE_REFUSED = { error: new AppError("invalid", CODE_NOT_VALID, { field: "code" }) };
const STEP_UP_REFUSED = { error: new AppError("invalid", STEP_UP_NOT_VALID, { field: "secret" }) };

function form(fields: Record<string, string>): FormData {
  const out = new FormData();
  for (const [key, value] of Object.entries(fields)) out.append(key, value);
  return out;
}

/** A redirect (NEXT_REDIRECT) is how some actions answer: its target. */
async function redirected(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => null,
    (e: unknown) => e as { digest?: string },
  );
  expect(error?.digest).toMatch(/^NEXT_REDIRECT/);
  return error!.digest!.split(";")[2];
}

/** A confirmed account with a password, a member (owner by default) of a new workspace. */
async function account(role: "owner" | "admin" | "member" = "owner", workspaceId?: string) {
  const email = `${unique("tf")}@example.test`;
  const id = await withService((tx) => createLocalUser(tx, email, password));
  const user: TestUser = { id, email, claims: { sub: id, role: "authenticated", email } };
  const ws = workspaceId
    ? { id: workspaceId }
    : await createWorkspace(db.sql, { owner: await addProfile(user) });
  if (workspaceId) await addMember(db.sql, workspaceId, role, await addProfile(user));
  return { ...user, workspaceId: ws.id };
}
async function addProfile(user: TestUser): Promise<TestUser> {
  await db.sql`insert into user_profiles (id, email, first_name, last_name) values (${user.id}, ${user.email}, 'T', 'F')`;
  return user;
}

/** Turns two-factor on, with a code of the previous step, so that the current one is still unused. */
async function enrol(userId: string, email: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const started = await withService((tx) => startEnrolment(tx, { userId, email }));
  if (!("data" in started)) throw started.error;
  const earlier = Date.now() - TOTP_PERIOD_SECONDS * 1000;
  const confirmed = await withService((tx) =>
    confirmEnrolment(tx, { userId, code: totpCode(started.data.secret, earlier), now: earlier }),
  );
  if (!("data" in confirmed)) throw confirmed.error;
  return { secret: started.data.secret, recoveryCodes: confirmed.data.recoveryCodes };
}

const auditActions = async (workspaceId: string, actorId: string) =>
  (
    await db.sql`select action from audit_log where workspace_id = ${workspaceId} and actor_id = ${actorId} order by id`
  ).map((row) => row.action as string);

const pendingFor = async (userId: string, email: string): Promise<PendingSignIn> => {
  const [row] = await db.sql`select session_version from auth.users where id = ${userId}`;
  return {
    userId,
    email,
    sessionVersion: row.session_version,
    password: { method: "password", timestamp: seconds() },
  };
};

describe("enrolment", () => {
  test("the TOTP secret is stored sealed, the recovery codes as digests; the first code turns it on and ends older sessions", async () => {
    const a = await account();
    const started = await withService((tx) => startEnrolment(tx, { userId: a.id, email: a.email }));
    if (!("data" in started)) throw started.error;
    expect(started.data.qrCode).toMatch(/^data:image\/svg\+xml;base64,/);
    const [stored] =
      await db.sql`select secret_sealed, enabled_at from user_two_factor where user_id = ${a.id}`;
    expect(stored.secret_sealed).toMatch(/^v1\./);
    expect(stored.secret_sealed).not.toContain(started.data.secret);
    expect(stored.enabled_at).toBeNull();

    // a wrong code does not turn it on
    expect(await withService((tx) => confirmEnrolment(tx, { userId: a.id, code: "000000" }))).toEqual(
      CODE_REFUSED,
    );
    const [{ session_version: before }] =
      await db.sql`select session_version from auth.users where id = ${a.id}`;
    signIn(a.claims);
    const answer: SecurityState = await security.confirmEnrolmentAction(
      {},
      form({ code: totpCode(started.data.secret) }),
    );
    expect(answer.recoveryCodes).toHaveLength(10);
    const codes = await db.sql`select code_digest from user_recovery_codes where user_id = ${a.id}`;
    expect(codes).toHaveLength(10);
    for (const code of answer.recoveryCodes!) expect(codes.map((c) => c.code_digest)).not.toContain(code);
    const [after] = await db.sql`
      select f.enabled_at, u.session_version from user_two_factor f join auth.users u on u.id = f.user_id
      where f.user_id = ${a.id}`;
    expect(after.enabled_at).not.toBeNull();
    expect(after.session_version).toBe(before + 1);
    expect(await auditActions(a.workspaceId, a.id)).toContain("account.two_factor_enabled");
  });

  test("a member's own JWT reads and writes none of the second factor's tables (the service door only)", async () => {
    const a = await account();
    await enrol(a.id, a.email);
    for (const table of ["user_two_factor", "user_recovery_codes", "workspace_security"])
      await expect(withUser(a.claims, (tx) => tx.unsafe(`select * from public.${table}`))).rejects.toThrow(
        /permission denied/,
      );
    await expect(
      withUser(
        a.claims,
        (tx) => tx`update public.user_two_factor set enabled_at = null where user_id = ${a.id}`,
      ),
    ).rejects.toThrow(/permission denied/);
    await expect(
      withUser(
        a.claims,
        (tx) =>
          tx`insert into public.workspace_security (workspace_id, require_two_factor) values (${a.workspaceId}, false)`,
      ),
    ).rejects.toThrow(/permission denied/);
  });
});

describe("sign-in with a second factor", () => {
  test("users without two-factor sign in with the password as before", async () => {
    const a = await account();
    expect(await redirected(() => auth.signInAction({}, form({ email: a.email, password })))).toBe("/");
  });

  test("with two-factor on, the password alone leads to the second step, not to a session", async () => {
    const a = await account();
    await enrol(a.id, a.email);
    expect(
      await redirected(() => auth.signInAction({}, form({ email: a.email, password, next: "/contacts" }))),
    ).toBe("/sign-in/two-factor?next=%2Fcontacts");
  });

  test("the current code completes it at aal2, with the password's and the code's amr entries", async () => {
    const a = await account();
    const { secret } = await enrol(a.id, a.email);
    const result = await secondStepFlow(
      { pending: await pendingFor(a.id, a.email), code: totpCode(secret) },
      null,
    );
    if (!("data" in result)) throw result.error;
    expect(result.data.assurance.aal).toBe("aal2");
    expect(result.data.assurance.amr.map((entry) => entry.method)).toEqual(["password", "totp"]);
    // and the session token carries both
    const token = await signSessionToken(result.data.user, result.data.assurance);
    expect((await verifySessionToken(token))?.claims).toMatchObject({ aal: "aal2" });
  });

  test("replay: a code accepted once is refused within its step, and an older step's code after it", async () => {
    const a = await account();
    const { secret } = await enrol(a.id, a.email);
    const now = Date.now();
    const code = totpCode(secret, now);
    const verify = (c: string, at = now) =>
      withService((tx) => verifySecondFactor(tx, { userId: a.id, code: c, now: at }));
    expect(await verify(code)).toEqual({ data: { method: "totp" } });
    expect(await verify(code)).toEqual(CODE_REFUSED);
    expect(await verify(totpCode(secret, now - 30_000))).toEqual(CODE_REFUSED);
    // the next step's code is good
    expect(await verify(totpCode(secret, now + 30_000), now + 30_000)).toEqual({ data: { method: "totp" } });
    // and the sign-in flow refuses the replayed code and audits it
    const replay = await secondStepFlow(
      { pending: await pendingFor(a.id, a.email), code: totpCode(secret, now + 30_000) },
      null,
    );
    expect(replay).toEqual(CODE_REFUSED);
    expect(await auditActions(a.workspaceId, a.id)).toContain("account.second_factor_failed");
  });

  test("a recovery code signs in once; used again it is refused; its use is audited", async () => {
    const a = await account();
    const { recoveryCodes } = await enrol(a.id, a.email);
    const code = recoveryCodes[3].toUpperCase(); // typed in capitals: the same code
    const first = await secondStepFlow({ pending: await pendingFor(a.id, a.email), code }, null);
    expect(first).toMatchObject({ data: { assurance: { aal: "aal2" } } });
    const [{ used }] =
      await db.sql`select count(*)::int as used from user_recovery_codes where user_id = ${a.id} and used_at is not null`;
    expect(used).toBe(1);
    const again = await secondStepFlow({ pending: await pendingFor(a.id, a.email), code }, null);
    expect(again).toEqual(CODE_REFUSED);
    expect(await auditActions(a.workspaceId, a.id)).toEqual(
      expect.arrayContaining(["account.recovery_code_used", "account.second_factor_failed"]),
    );
  });

  test("a password changed after the first step voids the pending sign-in", async () => {
    const a = await account();
    const { secret } = await enrol(a.id, a.email);
    const pending = await pendingFor(a.id, a.email);
    await db.sql`update auth.users set session_version = session_version + 1 where id = ${a.id}`;
    expect(await secondStepFlow({ pending, code: totpCode(secret) }, null)).toEqual(CODE_REFUSED);
  });

  test("code guessing is rate-limited per account: the sixth attempt in 15 minutes is refused unchecked", async () => {
    const a = await account();
    const { secret } = await enrol(a.id, a.email);
    const pending = await pendingFor(a.id, a.email);
    for (let i = 0; i < 5; i++)
      expect(await secondStepFlow({ pending, code: "000000" }, `203.0.113.${i}`)).toEqual(CODE_REFUSED);
    expect(await secondStepFlow({ pending, code: totpCode(secret) }, "203.0.113.99")).toEqual({
      error: new AppError("rate_limited", TOO_MANY_ATTEMPTS),
    });
  });

  test("turning two-factor off takes a valid code; a wrong one is refused and audited", async () => {
    const a = await account();
    const { secret } = await enrol(a.id, a.email);
    signIn({ ...a.claims, aal: "aal2" });
    expect(await security.disableTwoFactorAction({}, form({ code: "123456" }))).toMatchObject({
      errors: { code: expect.any(String) },
    });
    expect(await db.sql`select 1 from user_two_factor where user_id = ${a.id}`).toHaveLength(1);
    expect(
      await redirected(() => security.disableTwoFactorAction({}, form({ code: totpCode(secret) }))),
    ).toBe("/account/security?disabled=1");
    expect(await db.sql`select 1 from user_two_factor where user_id = ${a.id}`).toHaveLength(0);
    expect(await db.sql`select 1 from user_recovery_codes where user_id = ${a.id}`).toHaveLength(0);
    expect(await auditActions(a.workspaceId, a.id)).toEqual(
      expect.arrayContaining(["account.second_factor_failed", "account.two_factor_disabled"]),
    );
  });
});

describe("a workspace's requirement", () => {
  test("only an owner with two-factor sets it; the change is audited", async () => {
    const owner = await account();
    const admin = await account("admin", owner.workspaceId);
    signIn(admin.claims);
    expect(await workspaceSecurity.setTwoFactorRequirementAction({}, form({ required: "on" }))).toMatchObject(
      {
        message: expect.stringMatching(/owners/),
      },
    );
    signIn(owner.claims); // aal1
    expect(await workspaceSecurity.setTwoFactorRequirementAction({}, form({ required: "on" }))).toMatchObject(
      {
        message: expect.stringMatching(/your own account first/),
      },
    );
    expect(
      await db.sql`select 1 from workspace_security where workspace_id = ${owner.workspaceId}`,
    ).toHaveLength(0);
    signIn({ ...owner.claims, aal: "aal2" });
    expect(await workspaceSecurity.setTwoFactorRequirementAction({}, form({ required: "on" }))).toMatchObject(
      {
        success: expect.any(String),
      },
    );
    const [row] =
      await db.sql`select require_two_factor from workspace_security where workspace_id = ${owner.workspaceId}`;
    expect(row.require_two_factor).toBe(true);
    const [audit] = await db.sql`
      select before, after from audit_log
      where workspace_id = ${owner.workspaceId} and action = 'workspace.two_factor_requirement_changed'`;
    expect(audit).toEqual({ before: { requireTwoFactor: false }, after: { requireTwoFactor: true } });
  });

  test("a member without two-factor is sent to enrolment by every action and refused by every route", async () => {
    const owner = await account();
    const member = await account("member", owner.workspaceId);
    await db.sql`insert into workspace_security (workspace_id, require_two_factor) values (${owner.workspaceId}, true)`;
    const contact = await createContact(db.sql, owner.workspaceId);
    signIn(member.claims);
    expect(await redirected(() => tags.createTagAction({}, form({ name: "vip" })))).toBe(
      "/account/security?required=1",
    );
    expect(await db.sql`select 1 from tags where workspace_id = ${owner.workspaceId}`).toHaveLength(0);
    signIn(owner.claims); // an owner too: the setting binds everyone
    const res = await privacyExport(
      new Request(`http://crm.test/api/contacts/${contact.id}/privacy-export?format=json`),
      { params: Promise.resolve({ contactId: contact.id }) },
    );
    expect(res.status).toBe(403);
    // with a second factor (aal2) the workspace opens
    signIn({ ...member.claims, aal: "aal2" });
    expect(await tags.createTagAction({}, form({ name: "vip" }))).not.toHaveProperty("message");
    expect(await db.sql`select 1 from tags where workspace_id = ${owner.workspaceId}`).toHaveLength(1);
  });
});

describe("step-up before dangerous actions", () => {
  const stale = (claims: Claims): Claims => ({
    ...claims,
    amr: [{ method: "password", timestamp: seconds() - STEP_UP_WINDOW_SECONDS - 60 }],
  });

  test("each dangerous action answers step_up_required to a session older than the window, and changes nothing", async () => {
    const owner = await account();
    const colleague = await account("member", owner.workspaceId);
    const contact = await createContact(db.sql, owner.workspaceId);
    const [endpoint] = await db.sql`
      insert into webhook_endpoints (workspace_id, url, secret_ciphertext, event_types)
      values (${owner.workspaceId}, 'https://hooks.example.com/a', 'v1.x.y.z', '{contact.created}') returning id`;
    signIn(stale(owner.claims));
    const refused = { code: "step_up_required" };
    expect(await apiKeys.issueApiKeyAction({}, form({ name: "Website" }))).toMatchObject(refused);
    expect(await members.changeRoleAction({}, form({ userId: colleague.id, role: "admin" }))).toMatchObject(
      refused,
    );
    const endpointForm = { url: "https://hooks.example.com/b", eventTypes: "contact.created", enabled: "on" };
    expect(await webhooks.createEndpointAction({}, form(endpointForm))).toMatchObject(refused);
    expect(await webhooks.updateEndpointAction(endpoint.id, {}, form(endpointForm))).toMatchObject(refused);
    expect(await webhooks.rotateSecretAction({}, form({ endpointId: endpoint.id }))).toMatchObject(refused);
    expect(await webhooks.deleteEndpointAction({}, form({ endpointId: endpoint.id }))).toMatchObject(refused);
    expect(
      await privacy.eraseContactAction(contact.id, {}, form({ confirmation: contact.email })),
    ).toMatchObject(refused);
    const res = await privacyExport(
      new Request(`http://crm.test/api/contacts/${contact.id}/privacy-export?format=json`),
      { params: Promise.resolve({ contactId: contact.id }) },
    );
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject(refused);

    // nothing changed, nothing audited
    expect(await db.sql`select 1 from api_keys where workspace_id = ${owner.workspaceId}`).toHaveLength(0);
    const [role] = await db.sql`select role from workspace_members where user_id = ${colleague.id}`;
    expect(role.role).toBe("member");
    const endpoints =
      await db.sql`select url, secret_ciphertext from webhook_endpoints where workspace_id = ${owner.workspaceId}`;
    expect(endpoints).toEqual([{ url: "https://hooks.example.com/a", secret_ciphertext: "v1.x.y.z" }]);
    expect(await db.sql`select 1 from contacts where id = ${contact.id}`).toHaveLength(1);
    expect(await db.sql`select 1 from audit_log where workspace_id = ${owner.workspaceId}`).toHaveLength(0);

    // a fresh session (just signed in, or stepped up) goes through
    signIn(owner.claims);
    expect(
      await apiKeys.issueApiKeyAction({}, form({ name: "Website", scopes: "events:read" })),
    ).toHaveProperty("key");
    expect(await members.changeRoleAction({}, form({ userId: colleague.id, role: "admin" }))).toHaveProperty(
      "success",
    );
  });

  test("step-up: the password when two-factor is off; a code, not the password, when it is on; failures audited", async () => {
    const a = await account();
    const claims = stale(a.claims);
    expect(await stepUpFlow({ claims, secret: "wrong password" }, null)).toEqual(STEP_UP_REFUSED);
    const ok = await stepUpFlow({ claims, secret: password }, null);
    if (!("data" in ok)) throw ok.error;
    expect(Math.max(...ok.data.assurance.amr.map((entry) => entry.timestamp))).toBeGreaterThanOrEqual(
      seconds() - 1,
    );

    const { secret } = await enrol(a.id, a.email);
    const twoFactor = { ...claims, aal: "aal2" as const };
    expect(await stepUpFlow({ claims: twoFactor, secret: password }, null)).toEqual(STEP_UP_REFUSED);
    const coded = await stepUpFlow({ claims: twoFactor, secret: totpCode(secret) }, null);
    expect(coded).toMatchObject({ data: { assurance: { aal: "aal2" } } });
    expect(
      (await auditActions(a.workspaceId, a.id)).filter((x) => x === "account.step_up_failed"),
    ).toHaveLength(2);
  });
});

describe("a stolen session cannot take the account", () => {
  const stale = (claims: Claims): Claims => ({
    ...claims,
    amr: [{ method: "password", timestamp: seconds() - STEP_UP_WINDOW_SECONDS - 60 }],
  });

  test("a session that has not re-entered its password cannot enrol its own authenticator: no factor, other sessions intact", async () => {
    const a = await account();
    const [{ session_version: before }] =
      await db.sql`select session_version from auth.users where id = ${a.id}`;
    signIn(stale(a.claims));
    expect(await security.startEnrolmentAction({}, form({}))).toMatchObject({ code: "step_up_required" });
    expect(await db.sql`select 1 from user_two_factor where user_id = ${a.id}`).toHaveLength(0);

    // a pending secret the owner started does not help: confirming needs a fresh password too
    const started = await withService((tx) => startEnrolment(tx, { userId: a.id, email: a.email }));
    if (!("data" in started)) throw started.error;
    expect(
      await security.confirmEnrolmentAction({}, form({ code: totpCode(started.data.secret) })),
    ).toMatchObject({ code: "step_up_required" });
    const [after] = await db.sql`
      select f.enabled_at, u.session_version from user_two_factor f join auth.users u on u.id = f.user_id
      where f.user_id = ${a.id}`;
    expect(after).toEqual({ enabled_at: null, session_version: before });
    expect(await db.sql`select 1 from user_recovery_codes where user_id = ${a.id}`).toHaveLength(0);
    expect(await auditActions(a.workspaceId, a.id)).not.toContain("account.two_factor_enabled");

    // with the password given again (step-up), the owner enrols
    const stepped = await stepUpFlow({ claims: stale(a.claims), secret: password }, null);
    if (!("data" in stepped)) throw stepped.error;
    signIn({ ...a.claims, ...stepped.data.assurance });
    const again: SecurityState = await security.startEnrolmentAction({}, form({}));
    expect(again.enrolment?.secret).toEqual(expect.any(String));
    expect(
      await security.confirmEnrolmentAction({}, form({ code: totpCode(again.enrolment!.secret) })),
    ).toMatchObject({ recoveryCodes: expect.any(Array) });
    const [enabled] = await db.sql`select enabled_at from user_two_factor where user_id = ${a.id}`;
    expect(enabled.enabled_at).not.toBeNull();
  });

  test("a stolen session cannot turn two-factor off or make new recovery codes without a current code", async () => {
    const a = await account();
    const { recoveryCodes } = await enrol(a.id, a.email);
    signIn({ ...a.claims, aal: "aal2" });
    expect(await security.disableTwoFactorAction({}, form({ code: "000000" }))).toMatchObject({
      errors: { code: CODE_NOT_VALID },
    });
    expect(await security.regenerateRecoveryCodesAction({}, form({ code: "000000" }))).toMatchObject({
      errors: { code: CODE_NOT_VALID },
    });
    expect(await db.sql`select 1 from user_two_factor where user_id = ${a.id}`).toHaveLength(1);
    const digests = await db.sql`select code_digest from user_recovery_codes where user_id = ${a.id}`;
    expect(digests).toHaveLength(recoveryCodes.length);
  });
});

describe("step-up is fresh only by what the account signs in with", () => {
  const aged = seconds() - STEP_UP_WINDOW_SECONDS - 60;

  test("a password change does not make a two-factor session step-up fresh: creating an API key still needs a code", async () => {
    const a = await account();
    const { secret } = await enrol(a.id, a.email);
    signIn({
      ...a.claims,
      aal: "aal2",
      amr: [
        { method: "password", timestamp: aged },
        { method: "totp", timestamp: aged },
      ],
    });
    expect(
      await account_.changePasswordAction(
        {},
        form({ currentPassword: password, newPassword: "a brand new passphrase" }),
      ),
    ).toHaveProperty("success");
    const reissued = await issuedClaims();
    expect(reissued).toMatchObject({ sub: a.id, aal: "aal2" });
    signIn(reissued);
    expect(
      await apiKeys.issueApiKeyAction({}, form({ name: "Website", scopes: "events:read" })),
    ).toMatchObject({ code: "step_up_required" });
    expect(await db.sql`select 1 from api_keys where workspace_id = ${a.workspaceId}`).toHaveLength(0);

    // the code is the step-up of a two-factor account
    const stepped = await stepUpFlow({ claims: reissued!, secret: totpCode(secret) }, null);
    if (!("data" in stepped)) throw stepped.error;
    signIn({ ...reissued!, ...stepped.data.assurance });
    expect(
      await apiKeys.issueApiKeyAction({}, form({ name: "Website", scopes: "events:read" })),
    ).toHaveProperty("key");
  });

  test("expired step-up: a step-up older than the window is refused", async () => {
    const a = await account();
    await enrol(a.id, a.email);
    signIn({
      ...a.claims,
      aal: "aal2",
      amr: [
        { method: "password", timestamp: seconds() },
        { method: "totp", timestamp: seconds() - STEP_UP_WINDOW_SECONDS - 1 },
      ],
    });
    expect(
      await apiKeys.issueApiKeyAction({}, form({ name: "Website", scopes: "events:read" })),
    ).toMatchObject({ code: "step_up_required" });
    expect(await db.sql`select 1 from api_keys where workspace_id = ${a.workspaceId}`).toHaveLength(0);
  });
});

describe("step-up before every dangerous action", () => {
  const stale = (claims: Claims): Claims => ({
    ...claims,
    amr: [{ method: "password", timestamp: seconds() - STEP_UP_WINDOW_SECONDS - 60 }],
  });
  const refused = { code: "step_up_required" };
  const auditCount = async (workspaceId: string) =>
    (await db.sql`select count(*)::int as n from audit_log where workspace_id = ${workspaceId}`)[0].n;

  test("inviting an admin or an owner needs step-up; inviting a member does not", async () => {
    const owner = await account();
    signIn(stale(owner.claims));
    for (const role of ["admin", "owner"])
      expect(
        await members.inviteMemberAction({}, form({ email: `${role}@example.test`, role })),
      ).toMatchObject(refused);
    expect(
      await db.sql`select 1 from workspace_invitations where workspace_id = ${owner.workspaceId}`,
    ).toHaveLength(0);
    expect(await auditCount(owner.workspaceId)).toBe(0);
    expect(
      await members.inviteMemberAction({}, form({ email: "member@example.test", role: "member" })),
    ).toHaveProperty("success");
    signIn(owner.claims); // fresh
    expect(
      await members.inviteMemberAction({}, form({ email: "admin@example.test", role: "admin" })),
    ).toHaveProperty("success");
  });

  test("revoking an API key needs step-up", async () => {
    const owner = await account();
    const [key] = await db.sql`
      insert into api_keys (workspace_id, name, key_hash, scopes)
      values (${owner.workspaceId}, 'Website', ${"b".repeat(64)}, '{events:read}') returning id`;
    signIn(stale(owner.claims));
    expect(await apiKeys.revokeApiKeyAction({}, form({ keyId: key.id }))).toMatchObject(refused);
    const [row] = await db.sql`select revoked_at from api_keys where id = ${key.id}`;
    expect(row.revoked_at).toBeNull();
    expect(await auditCount(owner.workspaceId)).toBe(0);
  });

  test("removing a member needs step-up", async () => {
    const owner = await account();
    const colleague = await account("member", owner.workspaceId);
    signIn(stale(owner.claims));
    expect(await members.removeMemberAction({}, form({ userId: colleague.id }))).toMatchObject(refused);
    expect(
      await db.sql`select 1 from workspace_members where workspace_id = ${owner.workspaceId} and user_id = ${colleague.id}`,
    ).toHaveLength(1);
    expect(await auditCount(owner.workspaceId)).toBe(0);
  });

  test("turning off the workspace's two-factor requirement needs step-up (a code)", async () => {
    const owner = await account();
    const { secret } = await enrol(owner.id, owner.email);
    await db.sql`insert into workspace_security (workspace_id, require_two_factor) values (${owner.workspaceId}, true)`;
    const aal2 = { ...owner.claims, aal: "aal2" as const };
    // signed in with a code long ago, and with the password just now: the password does not count
    signIn({
      ...aal2,
      amr: [
        { method: "password", timestamp: seconds() },
        { method: "totp", timestamp: seconds() - STEP_UP_WINDOW_SECONDS - 60 },
      ],
    });
    expect(await workspaceSecurity.setTwoFactorRequirementAction({}, form({}))).toMatchObject(refused);
    const [row] =
      await db.sql`select require_two_factor from workspace_security where workspace_id = ${owner.workspaceId}`;
    expect(row.require_two_factor).toBe(true);
    expect(await auditCount(owner.workspaceId)).toBe(0);
    const stepped = await stepUpFlow({ claims: aal2, secret: totpCode(secret) }, null);
    if (!("data" in stepped)) throw stepped.error;
    signIn({ ...aal2, ...stepped.data.assurance });
    expect(await workspaceSecurity.setTwoFactorRequirementAction({}, form({}))).toHaveProperty("success");
  });

  test("exporting a segment's contacts as CSV needs step-up", async () => {
    const owner = await account();
    await createContact(db.sql, owner.workspaceId);
    const [segment] = await db.sql`
      insert into segments (workspace_id, name, filter)
      values (${owner.workspaceId}, 'All', '{"version":1,"root":{"kind":"group","op":"and","not":false,"conditions":[]}}')
      returning id`;
    const get = () =>
      segmentExport(new Request(`http://crm.test/api/segments/${segment.id}/contacts.csv`), {
        params: Promise.resolve({ segmentId: segment.id }),
      });
    signIn(stale(owner.claims));
    const res = await get();
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject(refused);
    expect(await auditCount(owner.workspaceId)).toBe(0);
    signIn(owner.claims);
    expect((await get()).status).toBe(200);
  });

  test("exporting the audit log as CSV needs step-up", async () => {
    const owner = await account();
    const get = () =>
      auditExport(new Request("http://crm.test/api/audit/export"), { params: Promise.resolve({}) });
    signIn(stale(owner.claims));
    const res = await get();
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject(refused);
    expect(await auditCount(owner.workspaceId)).toBe(0);
    signIn(owner.claims);
    expect((await get()).status).toBe(200);
  });
});

describe("session tokens", () => {
  test("a token issued before aal and amr existed counts as a password sign-in at its issue time", async () => {
    const { SignJWT } = await import("jose");
    const { authSecret } = await import("@/lib/auth/secret");
    const iat = seconds() - 3600;
    const token = await new SignJWT({ role: "authenticated", email: "old@example.test", sv: 0 })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("00000000-0000-0000-0000-000000000001")
      .setIssuedAt(iat)
      .setExpirationTime("1h")
      .sign(authSecret());
    expect((await verifySessionToken(token))?.claims).toMatchObject({
      aal: "aal1",
      amr: [{ method: "password", timestamp: iat }],
    });
  });
});
