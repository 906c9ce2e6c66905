import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";
import { connectPayproc, setupStripeFake } from "../helpers/payments";

const intents = await import("@/app/api/admin/backfill-payment-intents/route");
const refunds = await import("@/app/api/admin/backfill-refunds/route");

const db = setupTestDatabase();
const stripe = setupStripeFake();

const call = (route: { GET: (r: Request) => Promise<Response> }, workspaceId: string, site?: string) =>
  route.GET(
    new Request(`http://localhost/api/admin/x?workspace_id=${workspaceId}`, {
      headers: site ? { "sec-fetch-site": site } : {},
    }),
  );

describe("cross-site backfill: cookie callers of the backfill GETs must be same-origin", () => {
  test("a cross-site or same-site GET with the owner's cookie is refused and Stripe is not called", async () => {
    const ws = await createWorkspace(db.sql);
    await connectPayproc(db.sql, ws.id);
    signIn(ws.owner.claims);
    const before = stripe.fake.requests.length;
    for (const route of [intents, refunds])
      for (const site of ["cross-site", "same-site", undefined]) {
        const res = await call(route, ws.id, site);
        expect(res.status, String(site)).toBe(403);
        expect((await res.json()).success).toBe(false);
      }
    expect(stripe.fake.requests.length).toBe(before);
  });

  test("the dashboard's own same-origin call, or the address typed in the browser, still works", async () => {
    const ws = await createWorkspace(db.sql);
    await connectPayproc(db.sql, ws.id);
    signIn(ws.owner.claims);
    expect((await call(intents, ws.id, "same-origin")).status).toBe(200);
    expect((await call(refunds, ws.id, "none")).status).toBe(200);
  });
});
