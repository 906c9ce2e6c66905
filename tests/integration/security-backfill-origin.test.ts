import { describe, expect, test } from "vitest";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { signIn } from "../helpers/member-session";
import { STEP_UP_WINDOW_SECONDS } from "@/lib/two-factor/step-up";
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

describe("a signed-in member's backfill: the workspace's two-factor requirement and step-up", () => {
  test("a backfill from the dashboard needs step-up: a session older than the window is refused, Stripe not called", async () => {
    const ws = await createWorkspace(db.sql);
    await connectPayproc(db.sql, ws.id);
    const aged = Math.floor(Date.now() / 1000) - STEP_UP_WINDOW_SECONDS - 60;
    signIn({ ...ws.owner.claims, amr: [{ method: "password", timestamp: aged }] });
    const before = stripe.fake.requests.length;
    for (const route of [intents, refunds]) {
      const res = await call(route, ws.id, "same-origin");
      expect(res.status).toBe(403);
      expect(await res.json()).toMatchObject({ success: false, code: "step_up_required" });
    }
    expect(stripe.fake.requests.length).toBe(before);
  });

  test("a backfill from the dashboard is refused to a session without the second factor the workspace requires", async () => {
    const ws = await createWorkspace(db.sql);
    await connectPayproc(db.sql, ws.id);
    await db.sql`insert into workspace_security (workspace_id, require_two_factor) values (${ws.id}, true)`;
    signIn(ws.owner.claims); // fresh, but aal1
    const before = stripe.fake.requests.length;
    for (const route of [intents, refunds])
      expect((await call(route, ws.id, "same-origin")).status).toBe(403);
    expect(stripe.fake.requests.length).toBe(before);
  });
});
