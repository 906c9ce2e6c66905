/**
 * npm run bench -- email-broadcast-door: what the broadcasts' service door costs (docs/decisions.md,
 * "The database is the boundary"). Members no longer write public.broadcasts; every write checks
 * the caller as themself, switches to the service and back (writeBroadcast). Measured side by side:
 * - a draft's save through the door as the signed-in owner (withUser + writeBroadcast), against the
 *   floor, the same UPDATE in a transaction of the service's own (no check, no switch);
 * - the whole app save (updateBroadcast: compose the text, the segment check, the door).
 * Goal: the door's save at most 2x the floor (it adds two round trips to a one-statement transaction:
 * the check that switches to the service, and the switch back).
 *
 * It creates and drops its own database (crm_bench_broadcast_door) beside DATABASE_URL's.
 */
import { withService, withUser } from "../../lib/db/doors";
import { audienceSchema } from "../../lib/email/broadcast-audience";
import { writeBroadcast } from "../../lib/email/broadcast-door";
import { createBroadcast, updateBroadcast } from "../../lib/email/broadcasts";
import { benchDatabase, percentile, timings } from "./lib/database";
import { ownedWorkspace } from "./lib/owner";
import { verdict } from "./lib/verdict";

const SAVES = Number(process.env.BENCH_BROADCAST_DOOR_SAVES ?? 300);

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("Set DATABASE_URL to a Postgres server");
  const db = await benchDatabase(base, "crm_bench_broadcast_door", { max: 4, keep: false });
  try {
    const { workspaceId, claims } = await ownedWorkspace(db.sql, "broadcast-door");
    const draft = {
      workspaceId,
      subject: "News",
      format: "text" as const,
      audience: audienceSchema.parse({}),
    };
    const { id } = await withUser(claims, (tx) =>
      createBroadcast(tx, { ...draft, body: "Hello", createdBy: claims.sub }),
    );
    const save = (tx: Parameters<Parameters<typeof withService>[0]>[0], i: number) =>
      tx`update public.broadcasts set subject = ${`News ${i}`}
         where id = ${id} and workspace_id = ${workspaceId} and status = 'draft' returning id`;
    await timings(20, (i) => withService((tx) => save(tx, i))); // warm the pool and the plan
    const floor = await timings(SAVES, (i) => withService((tx) => save(tx, i)));
    const door = await timings(SAVES, (i) =>
      withUser(claims, (tx) => writeBroadcast(tx, workspaceId, () => save(tx, i))),
    );
    const app = await timings(SAVES, (i) =>
      withUser(claims, (tx) => updateBroadcast(tx, { ...draft, body: `Hello ${i}`, broadcastId: id })),
    );
    const row = (measure: string, ms: number[]) => ({
      measure,
      p50: `${percentile(ms, 50).toFixed(2)} ms`,
      p95: `${percentile(ms, 95).toFixed(2)} ms`,
    });
    console.table([
      row(`draft save, service floor (${SAVES})`, floor),
      row(`draft save through the door as the owner (${SAVES})`, door),
      row(`updateBroadcast as the owner, compose included (${SAVES})`, app),
    ]);
    verdict("door save vs service floor, p50", percentile(door, 50) / percentile(floor, 50), { atMost: 2 });
  } finally {
    await db.drop();
  }
}
