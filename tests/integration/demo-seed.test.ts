import { describe, expect, test } from "vitest";
import { withService, withUser } from "@/lib/db/doors";
import { periodOf } from "@/lib/dashboard/dashboard-period";
import { getDashboard } from "@/lib/dashboard/get-dashboard";
import { seedDemo } from "@/lib/seed/demo";
import { setupTestDatabase } from "../helpers/db";
import { unique } from "../helpers/factories";

const db = setupTestDatabase();

describe("the demo seed", () => {
  test("every dashboard section and list shows real rows on first start", async () => {
    const email = `${unique("demo")}@example.test`;
    const seed = await withService((tx) =>
      seedDemo(tx, "demo-password-1", { email, memberEmail: `${unique("member")}@example.test` }),
    );
    const [owner] = await db.sql`select id from auth.users where email = ${email}`;
    const claims = { sub: owner.id, role: "authenticated" as const, email };
    const d = await withUser(claims, (tx) =>
      getDashboard(tx, { workspaceId: seed.workspaceId, userId: owner.id, period: periodOf(90) }),
    );
    expect(new Set(d.contactsBySource.map((r) => r.source))).toEqual(
      new Set(["manual", "form", "import", "ticketing", "payproc", "event"]),
    );
    expect(d.consent.total).toBeGreaterThanOrEqual(300);
    for (const k of ["subscribed", "not_opted_in", "unsubscribed", "suppressed"] as const)
      expect(d.consent[k], k).toBeGreaterThan(0);
    const forms = new Map<string, { verified: number; staged: number }>();
    for (const f of d.forms) {
      const t = forms.get(f.form_name) ?? { verified: 0, staged: 0 };
      forms.set(f.form_name, { verified: t.verified + f.verified, staged: t.staged + f.staged });
    }
    expect(forms.size).toBe(2);
    expect([...forms.values()].some((f) => f.verified > 0)).toBe(true);
    expect([...forms.values()].some((f) => f.staged > 0)).toBe(true);
    expect(d.money[0].revenue_cents).toBeGreaterThan(0);
    expect(d.money[0].refunded_cents).toBeGreaterThan(0);
    expect(d.openReviewTasks).toBe(1);
    expect(d.events.length).toBeGreaterThanOrEqual(2);
    expect(d.events.find((e) => e.id === seed.rsvpEventId)).toMatchObject({ capacity: 60 });
    expect(d.notifications.length).toBeGreaterThan(0);

    const [counts] = await db.sql`
      select
        (select count(*)::int from contact_suppressions where workspace_id = ${seed.workspaceId} and reason = 'bounce') as bounce,
        (select count(*)::int from contact_suppressions where workspace_id = ${seed.workspaceId} and reason = 'complaint') as complaint,
        (select count(*)::int from contact_suppressions where workspace_id = ${seed.workspaceId} and reason = 'manual') as manual,
        (select count(*)::int from contact_suppressions where workspace_id = ${seed.workspaceId} and reason = 'unsubscribe') as unsubscribe,
        (select count(*)::int from broadcasts where workspace_id = ${seed.workspaceId} and status = 'sent') as broadcasts,
        (select count(*)::int from workspace_members where workspace_id = ${seed.workspaceId}) as members,
        (select count(*)::int from transactions where workspace_id = ${seed.workspaceId} and amount_refunded > 0 and amount_refunded < amount_paid) as partial,
        (select count(*)::int from events where workspace_id = ${seed.workspaceId} and external_event_id is not null) as linked,
        (select count(*)::int from tags where workspace_id = ${seed.workspaceId}) as tags`;
    for (const [k, v] of Object.entries(counts)) expect(v, k).toBeGreaterThan(0);
    expect(counts.members).toBe(2);
  });
});
