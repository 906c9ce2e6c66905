import { afterEach, describe, expect, test, vi } from "vitest";
import { getSql } from "@/lib/db/client";
import { setupTestDatabase } from "../helpers/db";
import { createUser, createWorkspace } from "../helpers/factories";

// A member action runs the session's version check, the membership and its work in one
// transaction (lib/adapters/member-door.ts; docs/decisions.md, "One error type and the adapters"):
// what the statements the app sends say, counted through postgres.js's debug hook. The session
// here is a real signed cookie, so the version check is the real one, not a test double.

const request = vi.hoisted(() => ({ cookie: undefined as string | undefined }));

vi.mock("server-only", () => ({}));
vi.mock("next/cache", () => ({ revalidatePath: () => {}, refresh: () => {} }));
vi.mock("next/headers", () => ({
  cookies: async () => ({
    get: (name: string) =>
      name === "crm_session" && request.cookie ? { name, value: request.cookie } : undefined,
    set: () => {},
    delete: () => {},
    getAll: () => [],
  }),
  headers: async () => new Headers({ "x-forwarded-for": "203.0.113.9" }),
}));

const { createContactAction } = await import("@/app/(dashboard)/contacts/actions");
const { signSessionToken } = await import("@/lib/auth/tokens");

const db = setupTestDatabase();

/** The statements the app sends while `fn` runs. */
async function statementsOf(fn: () => Promise<unknown>): Promise<string[]> {
  const sent: string[] = [];
  const options = getSql().options as { debug?: unknown };
  options.debug = (_connection: number, query: string) => sent.push(query.trim().toLowerCase());
  try {
    await fn().catch((error: unknown) => {
      if (!String((error as { digest?: string })?.digest ?? "").startsWith("NEXT_REDIRECT")) throw error;
    });
  } finally {
    options.debug = false;
  }
  return sent;
}

function form(fields: Record<string, string>): FormData {
  const f = new FormData();
  for (const [key, value] of Object.entries(fields)) f.set(key, value);
  return f;
}

afterEach(() => {
  request.cookie = undefined;
});

describe("a member action opens one transaction (session version, membership, work)", () => {
  test("creating a contact: one BEGIN, one COMMIT, the contact stored with the address read once", async () => {
    const ws = await createWorkspace(db.sql);
    request.cookie = await signSessionToken({ id: ws.owner.id, email: ws.owner.email, sessionVersion: 0 });
    const sent = await statementsOf(() =>
      createContactAction(undefined, form({ email: "one-tx@example.test", isSubscribed: "on" })),
    );
    expect(sent.filter((q) => q === "begin")).toHaveLength(1);
    expect(sent.filter((q) => q === "commit")).toHaveLength(1);
    // the session's version was checked inside it, before the insert
    const check = sent.findIndex((q) => q.includes("from auth.users"));
    const insert = sent.findIndex((q) => q.startsWith("insert into public.contacts"));
    expect(check).toBeGreaterThan(sent.indexOf("begin"));
    expect(insert).toBeGreaterThan(check);
    const [contact] = await db.sql`
      select opt_in_ip::text as ip from contacts where workspace_id = ${ws.id} and email = 'one-tx@example.test'`;
    expect(contact.ip).toMatch(/^203\.0\.113\.9/);
    // the membership was read as the service, the work ran as the member again: auth.uid() is theirs
    const [consent] = await db.sql`
      select actor_user_id from consent_events where workspace_id = ${ws.id} and flow = 'create_contact'`;
    expect(consent.actor_user_id).toBe(ws.owner.id);
    const audit = await db.sql`
      select action, ip::text as ip from audit_log where workspace_id = ${ws.id} and action = 'contact.created'`;
    expect(audit).toHaveLength(1);
    expect(audit[0].ip).toMatch(/^203\.0\.113\.9/);
  });

  test("a session whose version was raised (sign out everywhere) stores nothing, and the work is rolled back with the check", async () => {
    const ws = await createWorkspace(db.sql);
    request.cookie = await signSessionToken({ id: ws.owner.id, email: ws.owner.email, sessionVersion: 0 });
    await db.sql`update auth.users set session_version = session_version + 1 where id = ${ws.owner.id}`;
    const sent = await statementsOf(() =>
      createContactAction(undefined, form({ email: "stale@example.test" })),
    );
    expect(sent.some((q) => q.startsWith("insert into public.contacts"))).toBe(false);
    expect(await db.sql`select 1 from contacts where email = 'stale@example.test'`).toHaveLength(0);
    expect(await db.sql`select 1 from audit_log where workspace_id = ${ws.id}`).toHaveLength(0);
  });

  test("a signed-in account in no workspace stores nothing", async () => {
    const user = await createUser(db.sql);
    request.cookie = await signSessionToken({ id: user.id, email: user.email, sessionVersion: 0 });
    await statementsOf(() => createContactAction(undefined, form({ email: "nobody@example.test" })));
    expect(await db.sql`select 1 from contacts where email = 'nobody@example.test'`).toHaveLength(0);
  });
});
