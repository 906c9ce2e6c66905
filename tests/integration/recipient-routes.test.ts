import { describe, expect, test } from "vitest";
import { GET as subscribe } from "@/app/api/subscribe/[contactId]/route";
import { POST as oneClick } from "@/app/api/unsubscribe/[contactId]/route";
import { appUrl } from "@/lib/config";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();
const call = (contactId: string) => ({ params: Promise.resolve({ contactId }) });
// behind one appending proxy (TRUSTED_PROXY_HOPS=1): the client is the last entry
const request = (method: string) =>
  new Request("http://localhost/x", {
    method,
    headers: { "x-forwarded-for": "198.51.100.200, 203.0.113.77" },
  });

describe("4.6 GET /api/subscribe/{contact_id}", () => {
  test("4.6 step 2: redirects to /subscribe/confirmed and records the opt-in IP", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
    const res = await subscribe(request("GET"), call(c.id));
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${appUrl()}/subscribe/confirmed`);
    const [row] = await db.sql`select is_subscribed, host(opt_in_ip) as ip from contacts where id = ${c.id}`;
    expect(row).toEqual({ is_subscribed: true, ip: "203.0.113.77" });
  });

  test.each(["bounce", "complaint"])(
    "4.6 step 1: a %s suppression redirects to /subscribe/error with its reason code",
    async (reason) => {
      const ws = await createWorkspace(db.sql);
      const c = await createContact(db.sql, ws.id, { unsubscribed_at: new Date() });
      await db.sql`insert into contact_suppressions (contact_id, reason) values (${c.id}, ${reason})`;
      const res = await subscribe(request("GET"), call(c.id));
      expect(res.headers.get("location")).toBe(`${appUrl()}/subscribe/error?reason=${reason}`);
      const [row] = await db.sql`select is_subscribed from contacts where id = ${c.id}`;
      expect(row.is_subscribed).toBe(false);
    },
  );

  test("4.6: an unknown or malformed id redirects to the error page on our own host (no open redirect)", async () => {
    for (const id of ["00000000-0000-4000-8000-000000000000", "https:%2F%2Fevil.example"]) {
      const res = await subscribe(request("GET"), call(id));
      expect(res.headers.get("location")).toBe(`${appUrl()}/subscribe/error?reason=not_found`);
    }
  });
});

describe("4.7 RFC 8058 one-click POST", () => {
  test("4.7: the one-click POST unsubscribes: is_subscribed false, unsubscribed_at set, 'unsubscribe' suppression", async () => {
    const ws = await createWorkspace(db.sql);
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });
    const res = await oneClick(request("POST"), call(c.id));
    expect(res.status).toBe(200);
    const [row] = await db.sql`
      select is_subscribed, unsubscribed_at is not null as unsubscribed,
             exists (select 1 from contact_suppressions s where s.contact_id = contacts.id and reason = 'unsubscribe') as suppressed
      from contacts where id = ${c.id}`;
    expect(row).toEqual({ is_subscribed: false, unsubscribed: true, suppressed: true });
  });

  test("4.7: an unknown contact answers 404", async () => {
    expect((await oneClick(request("POST"), call("nope"))).status).toBe(404);
  });
});
