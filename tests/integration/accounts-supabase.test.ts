import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import {
  confirmSupabase,
  RECOVERY_GRANT_COOKIE,
  requestResetSupabase,
  signOutEverywhereSupabase,
  signUpSupabase,
  updatePasswordSupabase,
} from "@/lib/auth/flows/supabase";
import type { CookieJar } from "@/lib/auth/supabase-provider";
import { setupTestDatabase } from "../helpers/db";
import { unique } from "../helpers/factories";

// With Supabase Auth configured: its own confirmation, recovery and revocation are
// used. A local stand-in for the Supabase Auth (GoTrue) endpoints these flows call.
const db = setupTestDatabase();

interface Seen {
  path: string;
  query: Record<string, string>;
  authorization?: string;
  body: Record<string, unknown>;
}
let server: Server;
const seen: Seen[] = [];
const pending = new Map<string, { id: string; email: string; meta: Record<string, unknown> }>();

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  let raw = "";
  for await (const chunk of req) raw += chunk;
  return raw ? JSON.parse(raw) : {};
}

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const url = new URL(req.url!, "http://x");
    const body = await readJson(req);
    seen.push({
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      authorization: req.headers.authorization,
      body,
    });
    const reply = (status: number, json?: unknown) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(json === undefined ? "" : JSON.stringify(json));
    };
    if (url.pathname === "/auth/v1/signup") {
      // Supabase with confirmations on: the user, no session; the email carries a token hash
      const user = {
        id: randomUUID(),
        email: body.email as string,
        meta: body.data as Record<string, unknown>,
      };
      pending.set(`hash-${user.email}`, user);
      return reply(200, { id: user.id, aud: "authenticated", email: user.email, user_metadata: user.meta });
    }
    if (url.pathname === "/auth/v1/verify") {
      const user = pending.get(body.token_hash as string);
      if (!user) return reply(403, { code: "otp_expired", msg: "Email link is invalid or has expired" });
      await db.sql`insert into auth.users (id, email, email_confirmed_at) values (${user.id}, ${user.email}, now())
                   on conflict (id) do nothing`;
      return reply(200, {
        access_token: `access-${user.id}`,
        refresh_token: "refresh",
        expires_in: 3600,
        token_type: "bearer",
        user: { id: user.id, aud: "authenticated", email: user.email, user_metadata: user.meta },
      });
    }
    if (url.pathname === "/auth/v1/recover") return reply(200, {});
    if (url.pathname === "/auth/v1/user") {
      // getUser (GET) and updateUser (PUT): the user of the bearer token
      const id = req.headers.authorization?.replace(/^Bearer access-/, "") ?? "";
      const [user] = await db.sql`select id, email from auth.users where id::text = ${id}`;
      if (!user) return reply(401, { msg: "invalid JWT" });
      return reply(200, { id: user.id, aud: "authenticated", email: user.email });
    }
    if (url.pathname === "/auth/v1/logout") return reply(204);
    return reply(404, { msg: "not found" });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  process.env.NEXT_PUBLIC_SUPABASE_URL = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.NEXT_PUBLIC_SUPABASE_ANON_KEY = "anon-key-for-tests";
  process.env.APP_URL = "https://crm.example.test";
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen.length = 0;
});

/** An in-memory cookie jar: what @supabase/ssr would keep in the browser's cookies. */
function memoryJar(): CookieJar {
  const cookies = new Map<string, string>();
  return {
    getAll: () => [...cookies].map(([name, value]) => ({ name, value })),
    setAll: (list) =>
      list.forEach(({ name, value }) => (value ? cookies.set(name, value) : cookies.delete(name))),
  };
}

const input = (email: string) => ({
  email,
  password: "correct horse battery",
  firstName: "Sue",
  lastName: "Base",
  workspaceName: "Sue's Shop",
});

describe("accounts with Supabase Auth: its own confirmation and recovery flows", () => {
  test("sign-up goes through Supabase's confirmation email and creates nothing here until confirmed", async () => {
    const email = `${unique("sue")}@example.test`;
    expect(await signUpSupabase(memoryJar(), input(email))).toEqual({ data: { email } });
    const [call] = seen.filter((s) => s.path === "/auth/v1/signup");
    expect(call.query.redirect_to).toBe("https://crm.example.test/auth/confirm?next=%2F");
    expect(call.body).toMatchObject({
      email,
      data: { first_name: "Sue", last_name: "Base", workspace_name: "Sue's Shop" },
    });
    expect(await db.sql`select 1 from user_profiles where email = ${email}`).toEqual([]);
  });

  test("/auth/confirm's verification creates the profile and the user's own workspace, once", async () => {
    const email = `${unique("sue")}@example.test`;
    await signUpSupabase(memoryJar(), input(email));
    expect(await confirmSupabase(memoryJar(), `hash-${email}`, "email")).toBe(true);
    expect(await confirmSupabase(memoryJar(), `hash-${email}`, "email")).toBe(true);
    const rows = await db.sql`
      select p.first_name, w.name, m.role from user_profiles p
      join workspace_members m on m.user_id = p.id join workspaces w on w.id = m.workspace_id
      where p.email = ${email}`;
    expect(rows).toEqual([{ first_name: "Sue", name: "Sue's Shop", role: "owner" }]);
    expect(await confirmSupabase(memoryJar(), "hash-unknown", "email")).toBe(false);
  });

  test("reset asks Supabase for its recovery email, leading to /auth/confirm then /reset-password", async () => {
    await requestResetSupabase(memoryJar(), "someone@example.test");
    const [call] = seen.filter((s) => s.path === "/auth/v1/recover");
    expect(call.body).toMatchObject({ email: "someone@example.test" });
    expect(call.query.redirect_to).toBe("https://crm.example.test/auth/confirm?next=%2Freset-password");
  });

  test("sign out everywhere revokes every session of the user (scope global)", async () => {
    const email = `${unique("sue")}@example.test`;
    const jar = memoryJar();
    await signUpSupabase(jar, input(email));
    await confirmSupabase(jar, `hash-${email}`, "email");
    await signOutEverywhereSupabase(jar);
    const [call] = seen.filter((s) => s.path === "/auth/v1/logout");
    expect(call.query.scope).toBe("global");
    expect(call.authorization).toMatch(/^Bearer access-/);
  });

  test("a Supabase session alone cannot set a new password: without the current one it needs this browser's fresh recovery link, once", async () => {
    const email = `${unique("sue")}@example.test`;
    const jar = memoryJar();
    await signUpSupabase(jar, input(email));
    await confirmSupabase(jar, `hash-${email}`, "email"); // signed in, as a stolen session would be
    const passwordWrites = () => seen.filter((s) => s.path === "/auth/v1/user" && s.body.password);

    expect(await updatePasswordSupabase(jar, "attacker's choice 1")).toBeNull();
    expect(passwordWrites()).toEqual([]);

    // the recovery link opened in this browser leaves a grant for this user
    expect(await confirmSupabase(jar, `hash-${email}`, "recovery")).toBe(true);
    expect(jar.getAll().map((c) => c.name)).toContain(RECOVERY_GRANT_COOKIE);
    const changed = await updatePasswordSupabase(jar, "a new password 2");
    const [user] = await db.sql`select id from auth.users where email = ${email}`;
    expect(changed).toEqual({ userId: user.id, email });
    expect(passwordWrites().map((s) => s.body.password)).toEqual(["a new password 2"]);

    // the grant is spent
    expect(await updatePasswordSupabase(jar, "a third password 3")).toBeNull();
    expect(passwordWrites()).toHaveLength(1);
  });

  test("another user's recovery grant does not let this session change its password", async () => {
    const victim = `${unique("victim")}@example.test`;
    const attacker = `${unique("attacker")}@example.test`;
    const jar = memoryJar();
    await signUpSupabase(jar, input(attacker));
    await confirmSupabase(jar, `hash-${attacker}`, "recovery"); // the attacker's own grant
    const grant = jar.getAll().find((c) => c.name === RECOVERY_GRANT_COOKIE)!;
    const victimJar = memoryJar();
    await signUpSupabase(victimJar, input(victim));
    await confirmSupabase(victimJar, `hash-${victim}`, "email");
    victimJar.setAll([grant]);
    expect(await updatePasswordSupabase(victimJar, "attacker's choice 4")).toBeNull();
    expect(seen.filter((s) => s.path === "/auth/v1/user" && s.body.password)).toEqual([]);
  });
});
