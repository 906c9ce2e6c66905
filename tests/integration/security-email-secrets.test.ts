import { randomBytes } from "node:crypto";
import { describe, expect, test, vi } from "vitest";
import { resetPasswordEmail, sendAccountEmail, signUpEmail } from "@/lib/auth/account-emails";
import { withService, withUser } from "@/lib/db/doors";
import { log } from "@/lib/observability/log";
import { sendInvitationEmail } from "@/lib/workspaces/invitation-email";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace } from "../helpers/factories";
import { createForm, openVerifyLink, submit, verificationLink } from "../helpers/forms";
import { attempt } from "../helpers/rls";

const db = setupTestDatabase();
const newToken = () => randomBytes(32).toString("base64url");

describe("secret links are never stored readable in the workspace's email log", () => {
  test("a member cannot confirm a double opt-in for the person: the dev outbox's verification email is redacted where members read", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    const form = await createForm(db.sql, ws.id);
    const c = await createContact(db.sql, ws.id, { first_name: "Ada" });
    const res = await submit(form.id, { json: { email: c.email, first_name: "Eve" }, ip: "198.51.100.7" });
    expect(await res.json()).toEqual({ success: true, pending_verification: true });

    // what the member reads through the REST API (and the outbox page)
    const seen = await withUser(
      member.claims,
      (tx) => tx`select status, html, text_body from public.email_sends where workspace_id = ${ws.id}`,
    );
    expect(seen).toHaveLength(1);
    expect(seen[0].status).toBe("outbox");
    for (const body of [seen[0].html, seen[0].text_body]) {
      expect(body).toContain("/api/forms/verify?token=[redacted]");
      expect(body).not.toMatch(/token=[A-Za-z0-9_-]{43}/);
    }
    // the whole copy is where no member reads or writes
    expect(
      await attempt(() => withUser(member.claims, (tx) => tx`select * from public.email_send_secrets`)),
    ).toEqual({ ok: false, code: "42501" });
    expect(
      await attempt(() =>
        withUser(member.claims, (tx) => tx`update public.email_send_secrets set text_body = 'x' returning 1`),
      ),
    ).toEqual({ ok: false, code: "42501" });

    // the person's link (read here as the database owner, as the e2e tests do) still works
    const link = await verificationLink(db.sql, c.email);
    expect((await openVerifyLink(link)).status).toBe(303);
    const [contact] = await db.sql`select first_name from contacts where id = ${c.id}`;
    expect(contact.first_name).toBe("Eve");
  });

  test("a member cannot attach a 'whole copy' to an email: no member writes email_send_secrets", async () => {
    const ws = await createWorkspace(db.sql);
    const [mail] = await db.sql`
      insert into email_sends (workspace_id, to_email, kind, subject, html, status, provider)
      values (${ws.id}, 'x@example.test', 'transactional', 'S', '<p>x</p>', 'outbox', 'outbox') returning id`;
    expect(
      await attempt(() =>
        withUser(
          ws.owner.claims,
          (tx) => tx`insert into public.email_send_secrets (email_send_id, html) values (${mail.id}, 'h')`,
        ),
      ),
    ).toEqual({ ok: false, code: "42501" });
    expect(await db.sql`select 1 from email_send_secrets where email_send_id = ${mail.id}`).toEqual([]);
  });
});

describe("the dev outbox's log outside development", () => {
  test("without RESEND_API_KEY outside development, sign-up, reset and invitation tokens never reach the logs", async () => {
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("RESEND_API_KEY", "");
    const lines: string[] = [];
    const keep = (...args: unknown[]) => void lines.push(args.map((a) => JSON.stringify(a)).join(" "));
    const spies = [
      vi.spyOn(log, "info").mockImplementation(keep as never),
      vi.spyOn(log, "warn").mockImplementation(keep as never),
      vi.spyOn(console, "info").mockImplementation(keep),
      vi.spyOn(console, "log").mockImplementation(keep),
    ];
    try {
      const ws = await createWorkspace(db.sql);
      const tokens = { signUp: newToken(), reset: newToken(), invitation: newToken() };
      await withService(async (tx) => {
        await sendAccountEmail(tx, "new@example.test", signUpEmail(tokens.signUp), tokens.signUp);
        await sendAccountEmail(tx, "old@example.test", resetPasswordEmail(tokens.reset), tokens.reset);
        await sendInvitationEmail(tx, {
          workspaceId: ws.id,
          workspaceName: "Bakery",
          email: "invitee@example.test",
          role: "admin",
          token: tokens.invitation,
        });
      });
      const output = lines.join("\n");
      for (const token of Object.values(tokens)) expect(output).not.toContain(token);
      expect(output).toContain("new@example.test"); // a line is logged, with the link redacted
      expect(output).toContain("[redacted]");
    } finally {
      for (const spy of spies) spy.mockRestore();
      vi.unstubAllEnvs();
    }
  });
});
