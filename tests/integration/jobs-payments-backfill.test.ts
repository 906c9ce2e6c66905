import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { enqueuePaymentsBackfill } from "@/lib/payments/enqueue-payments-backfill";
import { createWorkspace } from "../helpers/factories";
import { jobsOf } from "../helpers/jobs";
import { connectPayproc } from "../helpers/payments";
import { setupBackfillTest } from "../helpers/payments-backfill";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

const { db, stripe, historic } = setupBackfillTest();
const workers = setupWorkers(db);

describe("jobs: the payments backfill started from the dashboard runs as a job", () => {
  test("4.11/4.12: the job runs the three phases on a worker: every intent found, the refund applied", async () => {
    const ws = await createWorkspace(db.sql);
    const conn = await connectPayproc(db.sql, ws.id);
    const old = await historic(conn, [1000, 2000]);
    stripe.fake.refund(stripe.fake.chargeIdOf(old.paymentIntentId!)!, 2000);
    await withService((tx) => enqueuePaymentsBackfill(tx, ws.id));
    await workers.inProcess(["payments-backfill"]);
    await waitFor(
      async () => (await jobsOf(db.sql, ws.id)).every((j) => j.state === "completed"),
      "the backfill job done",
      60_000,
    );
    const rows = await db.sql`
      select id, payproc_payment_intent_id as pi, status from transactions where workspace_id = ${ws.id}`;
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(rows.filter((r) => r.pi === null)).toEqual([]);
    expect(old.ids.map((id) => byId.get(id)!.status)).toEqual(["succeeded", "refunded"]);
  }, 120_000);
});
