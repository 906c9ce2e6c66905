/**
 * npm run bench -- consent-door: what the consent door costs (docs/decisions.md, "The database is
 * the boundary"). Members no longer write contacts' consent columns nor delete an 'unsubscribe'
 * suppression themselves; every consent write checks the member and switches to the service and
 * back in the same transaction (writeConsent). Measured side by side:
 * - a consent change (the columns, the suppression, the ledger entry) in a transaction of the
 *   service's own (no check, no switch): the floor, what a member's direct write used to cost;
 * - the same statements through the door as the signed-in owner (withUser + writeConsent);
 * - the whole app flows as the owner, unsubscribe then manual subscribe (spec 4.9), in turn;
 * - a 'manual' block added and removed in turn (spec 2.6), whose ledger entries go through the door too.
 * Goal: the door's write at most 2x the floor (it adds two round trips to a three-statement transaction).
 *
 * It creates and drops its own database (crm_bench_consent_door) beside DATABASE_URL's.
 */
import { withService, withUser, type Db } from "../../lib/db/doors";
import { writeConsent } from "../../lib/consent/consent-door";
import { manualSubscribe } from "../../lib/consent/manual-subscribe";
import { unsubscribeContact } from "../../lib/consent/unsubscribe-contact";
import { addManualSuppression, removeSuppression } from "../../lib/consent/suppressions";
import { benchDatabase, percentile, timings } from "./lib/database";
import { ownedWorkspace } from "./lib/owner";
import { verdict } from "./lib/verdict";

const WRITES = Number(process.env.BENCH_CONSENT_DOOR_WRITES ?? 300);

export default async function run(): Promise<void> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error("Set DATABASE_URL to a Postgres server");
  const db = await benchDatabase(base, "crm_bench_consent_door", { max: 4, keep: false });
  try {
    const { workspaceId, claims } = await ownedWorkspace(db.sql, "consent-door");
    const [{ id }] = await db.sql`
      insert into contacts (workspace_id, email) values (${workspaceId}, 'c@example.test') returning id`;
    // an unsubscribe as applyConsent writes it: the columns, the suppression, the ledger entry
    const unsubscribe = (tx: Db) => [
      tx`update public.contacts set is_subscribed = false, unsubscribed_at = now()
         where id = ${id} and workspace_id = ${workspaceId}`.execute(),
      tx`delete from public.contact_suppressions
         where contact_id = ${id} and workspace_id = ${workspaceId} and reason = 'unsubscribe'`.execute(),
      tx`insert into public.consent_events (workspace_id, contact_id, action, flow, actor_user_id)
         values (${workspaceId}, ${id}, 'unsubscribed', 'manual_unsubscribe', ${claims.sub})`.execute(),
    ];
    const write = async (tx: Db) => void (await Promise.all(unsubscribe(tx)));
    await timings(20, () => withService(write)); // warm the pool and the plans
    const floor = await timings(WRITES, () => withService(write));
    const door = await timings(WRITES, () =>
      withUser(claims, (tx) => writeConsent(tx, workspaceId, () => write(tx))),
    );
    const flows = await timings(WRITES, (i) =>
      withUser(claims, (tx) =>
        i % 2 === 0
          ? unsubscribeContact(tx, {
              workspaceId,
              contactId: id,
              flow: "manual_unsubscribe",
              actorUserId: claims.sub,
            })
          : manualSubscribe(tx, {
              workspaceId,
              contactId: id,
              legalBasis: "Written Consent",
              attested: true,
              ip: null,
              actorUserId: claims.sub,
            }),
      ),
    );
    const blocks = await timings(WRITES, (i) =>
      withUser<unknown>(claims, (tx) => {
        const input = { workspaceId, contactId: id, actorUserId: claims.sub };
        return i % 2 === 0
          ? addManualSuppression(tx, input)
          : removeSuppression(tx, { ...input, reason: "manual" });
      }),
    );
    const row = (measure: string, ms: number[]) => ({
      measure,
      p50: `${percentile(ms, 50).toFixed(2)} ms`,
      p95: `${percentile(ms, 95).toFixed(2)} ms`,
    });
    console.table([
      row(`consent write, service floor (${WRITES})`, floor),
      row(`consent write through the door as the owner (${WRITES})`, door),
      row(`unsubscribe / manual subscribe flows as the owner (${WRITES})`, flows),
      row(`'manual' block added / removed as the owner (${WRITES})`, blocks),
    ]);
    verdict("door write vs service floor, p50", percentile(door, 50) / percentile(floor, 50), { atMost: 2 });
  } finally {
    await db.drop();
  }
}
