import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { withUser, type Db } from "@/lib/db/doors";
import { supabaseAccounts } from "@/lib/auth/provision-account";
import { addMemberByEmail } from "@/lib/workspaces/add-member";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace, unique, type TestUser } from "../helpers/factories";

const db = setupTestDatabase();
const SERVICE_KEY = "service-role-key-for-tests";

interface Seen {
  method: string;
  path: string;
  authorization?: string;
  body: Record<string, unknown>;
}

/** Supabase Auth's admin API as far as inviting goes: POST /auth/v1/invite creates the user. */
let server: Server;
let url: string;
const seen: Seen[] = [];
let refuse = false;

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : {};
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await readJson(req);
    const path = new URL(req.url!, "http://x").pathname;
    seen.push({ method: req.method!, path, authorization: req.headers.authorization, body });
    res.setHeader("content-type", "application/json");
    if (req.method === "POST" && path === "/auth/v1/invite") {
      if (refuse) {
        res.statusCode = 422;
        res.end(
          JSON.stringify({
            code: "email_exists",
            msg: "A user with this email address has already been registered",
          }),
        );
        return;
      }
      const [user] =
        await db.sql`insert into auth.users (email) values (${body.email as string}) returning id`;
      res.end(
        JSON.stringify({ id: user.id, aud: "authenticated", role: "authenticated", email: body.email }),
      );
      return;
    }
    res.statusCode = 404;
    res.end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const as =
  (user: TestUser) =>
  <T>(fn: (tx: Db) => Promise<T>): Promise<T> =>
    withUser(user.claims, fn);

describe("addMember with Supabase configured and SUPABASE_SERVICE_ROLE_KEY set", () => {
  test("an unknown email is invited with auth.admin.inviteUserByEmail and added as a member", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("invitee")}@example.test`;
    const result = await addMemberByEmail(as(ws.owner), supabaseAccounts(url, SERVICE_KEY), {
      workspaceId: ws.id,
      email: email.toUpperCase(),
      role: "admin",
    });
    if (!("data" in result)) throw new Error(result.error);
    expect(result.data).toMatchObject({ email, role: "admin", invited: true });
    expect(result.data.temporaryPassword).toBeUndefined();
    const invite = seen.find((s) => s.path === "/auth/v1/invite" && s.body.email === email);
    expect(invite?.authorization).toBe(`Bearer ${SERVICE_KEY}`);
    const [row] = await db.sql`
      select m.role, p.email from workspace_members m join user_profiles p on p.id = m.user_id
      where m.workspace_id = ${ws.id} and m.user_id = ${result.data.userId}`;
    expect(row).toEqual({ role: "admin", email });
  });

  test("a refused invitation is reported and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const email = `${unique("refused")}@example.test`;
    refuse = true;
    try {
      const result = await addMemberByEmail(as(ws.owner), supabaseAccounts(url, SERVICE_KEY), {
        workspaceId: ws.id,
        email,
        role: "member",
      });
      expect(result).toEqual({
        error: "The invitation could not be sent: A user with this email address has already been registered",
        field: "email",
      });
    } finally {
      refuse = false;
    }
    expect(await db.sql`select 1 from auth.users where email = ${email}`).toHaveLength(0);
    const [{ n }] =
      await db.sql`select count(*)::int as n from workspace_members where workspace_id = ${ws.id}`;
    expect(n).toBe(1);
  });
});
