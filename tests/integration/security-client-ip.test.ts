import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { createForm, randomIp, submit } from "../helpers/forms";

const db = setupTestDatabase();

let saved: string | undefined;
beforeAll(() => {
  saved = process.env.TRUSTED_PROXY_HOPS;
  process.env.TRUSTED_PROXY_HOPS = "1";
});
afterAll(() => {
  if (saved === undefined) delete process.env.TRUSTED_PROXY_HOPS;
  else process.env.TRUSTED_PROXY_HOPS = saved;
});

/** nginx `$proxy_add_x_forwarded_for` or an ALB: the client's own header, then the peer address. */
const behindAppendingProxy = (clientHeader: string, peer: string) => `${clientHeader}, ${peer}`;

describe("spoofed client IP: X-Forwarded-For is trusted only as far as TRUSTED_PROXY_HOPS", () => {
  test("a spoofed X-Forwarded-For cannot bypass the form limit under TRUSTED_PROXY_HOPS=1 behind an appending proxy", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const attacker = randomIp();
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) {
      const res = await submit(form.id, {
        json: { email: `spoof${i}@example.test` },
        ip: behindAppendingProxy(randomIp(), attacker),
      });
      statuses.push(res.status);
    }
    expect(statuses.slice(0, 5).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(5)).toEqual([429, 429]);
    const rows = await db.sql`
      select distinct host(ip_address) as ip from form_submissions where form_id = ${form.id}`;
    expect(rows.map((r) => r.ip)).toEqual([attacker]);
    const consent = await db.sql`
      select distinct host(opt_in_ip) as ip from contacts where workspace_id = ${ws.id} and opt_in_ip is not null`;
    expect(consent.every((r) => r.ip === attacker)).toBe(true);
  });

  test("with one X-Forwarded-For value (Vercel, or the outside checks) that value is the client", async () => {
    const ws = await createWorkspace(db.sql);
    const form = await createForm(db.sql, ws.id, { require_verification: false });
    const ip = randomIp();
    const res = await submit(form.id, { json: { email: "one@example.test" }, ip });
    expect(res.status).toBe(200);
    const [row] =
      await db.sql`select host(ip_address) as ip from form_submissions where form_id = ${form.id}`;
    expect(row.ip).toBe(ip);
  });
});
