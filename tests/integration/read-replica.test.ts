import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { createContact } from "@/lib/contacts/create-contact";
import { getContacts } from "@/lib/contacts/get-contacts";
import { connect, setSql, type Sql } from "@/lib/db/client";
import { withReadService, withReadUser, withUser } from "@/lib/db/doors";
import { setReadSql } from "@/lib/db/replica";
import { metrics } from "@/lib/observability/metrics";
import { webReadiness } from "@/lib/observability/readiness";
import { addMember, createContact as insertContact, createUser, createWorkspace } from "../helpers/factories";
import { postgresBinaries, startReplicaPair, type ReplicaPair } from "../helpers/replica";
import { apiKey, call } from "../helpers/api-v1";
import * as v1Contacts from "@/app/api/v1/contacts/route";

/**
 * DATABASE_READ_URL (lib/db/replica.ts, docs/deployment.md "Read replica") against a real streaming
 * replica: a primary and a replica cluster of their own (tests/helpers/replica.ts), the replica
 * applying every commit half a second late (recovery_min_apply_delay = 500ms), so what the replica
 * serves can be told from what the primary serves. Only the real Postgres pass runs it.
 */
const binaries = postgresBinaries();
const runs = process.env.TEST_DB === "postgres" && binaries !== null;
const why = runs
  ? ""
  : process.env.TEST_DB !== "postgres"
    ? " [skipped: runs in the real Postgres pass only (set DATABASE_URL)]"
    : " [skipped: PostgreSQL server binaries (initdb, pg_basebackup) are not installed]";
if (!runs) console.log(`read-replica.test.ts${why}`);

let pair: ReplicaPair;
let primary: Sql; // the test's own superuser connection, for arranging and asserting
let appPrimary: Sql;
let appReplica: Sql;

/** crm_db_reads_total by `target/reason`, as counted so far. */
async function reads(): Promise<Record<string, number>> {
  const { values } = await metrics().dbReads.get();
  return Object.fromEntries(values.map((v) => [`${v.labels.target}/${v.labels.reason}`, v.value]));
}

/** What `fn` added to crm_db_reads_total. */
async function counted(fn: () => Promise<unknown>): Promise<Record<string, number>> {
  const before = await reads();
  await fn();
  const after = await reads();
  return Object.fromEntries(
    Object.entries(after)
      .map(([k, v]) => [k, v - (before[k] ?? 0)] as const)
      .filter(([, v]) => v > 0),
  );
}

const total = async (r: Awaited<ReturnType<typeof getContacts>>) => {
  if ("error" in r) throw r.error;
  return r.total;
};

beforeAll(async () => {
  if (!runs) return;
  pair = await startReplicaPair({ applyDelayMs: 500 });
  primary = connect(pair.primary.url(pair.database), { max: 2 });
  appPrimary = connect(pair.primary.url(pair.database), { max: 5 });
  appReplica = connect(pair.replica.url(pair.database), { max: 5 });
  setSql(appPrimary);
  setReadSql(appReplica);
}, 120_000);

afterAll(async () => {
  if (!runs) return;
  setReadSql(undefined);
  setSql(undefined);
  vi.unstubAllEnvs();
  await Promise.all([primary.end(), appPrimary.end(), appReplica.end({ timeout: 1 })]);
  await pair.stop();
});

beforeEach(() => {
  if (!runs) return;
  vi.stubEnv("DATABASE_READ_URL", pair.replica.url(pair.database));
  vi.stubEnv("DATABASE_READ_CHECK_MS", "0"); // every read looks at the replica afresh
  // the apply delay makes the replica look half a second (or, after an idle spell, longer) behind
  vi.stubEnv("DATABASE_READ_MAX_LAG_MS", "60000");
});

describe.skipIf(!runs)(`a streaming replica 500 ms behind serves the reads that tolerate lag${why}`, () => {
  test("list reads are served by the replica: a row committed on the primary a moment ago is not in them yet", async () => {
    const ws = await createWorkspace(primary);
    for (let i = 0; i < 3; i++) await insertContact(primary, ws.id);
    await pair.caughtUp();
    await insertContact(primary, ws.id); // committed, not yet applied on the replica
    let seen = 0;
    const delta = await counted(async () => {
      seen = await total(
        await withReadUser(ws.owner.claims, (db) => getContacts(db, { workspaceId: ws.id })),
      );
    });
    expect(delta).toEqual({ "replica/replica": 1 });
    expect(seen).toBe(3);
    const [{ n }] = await primary`select count(*)::int as n from contacts where workspace_id = ${ws.id}`;
    expect(n).toBe(4);
    await pair.caughtUp();
    expect(
      await total(await withReadUser(ws.owner.claims, (db) => getContacts(db, { workspaceId: ws.id }))),
    ).toBe(4);
  });

  test("a member sees their own write at once; another member, reading the replica, sees it half a second later", async () => {
    const ws = await createWorkspace(primary);
    const colleague = await addMember(primary, ws.id, "member");
    await pair.caughtUp();
    const created = await withUser(ws.owner.claims, (db) =>
      createContact(db, { workspaceId: ws.id, email: "own-write@example.test" }),
    );
    expect("data" in created).toBe(true);
    const [mark] =
      await primary`select lsn::text from app_meta.read_marks where caller = ${`member:${ws.owner.id}`}`;
    expect(mark).toBeDefined();

    let own = -1;
    let theirs = -1;
    const delta = await counted(async () => {
      own = await total(await withReadUser(ws.owner.claims, (db) => getContacts(db, { workspaceId: ws.id })));
      theirs = await total(
        await withReadUser(colleague.claims, (db) => getContacts(db, { workspaceId: ws.id })),
      );
    });
    expect({ own, theirs }).toEqual({ own: 1, theirs: 0 });
    expect(delta).toEqual({ "primary/own_write": 1, "replica/replica": 1 });

    await pair.caughtUp();
    const later = await counted(async () => {
      own = await total(await withReadUser(ws.owner.claims, (db) => getContacts(db, { workspaceId: ws.id })));
    });
    expect(own).toBe(1);
    expect(later).toEqual({ "replica/replica": 1 }); // replayed past the mark: the replica again
  });

  test("a transaction that only read leaves no read-your-writes mark", async () => {
    const ws = await createWorkspace(primary);
    await withUser(ws.owner.claims, (db) => getContacts(db, { workspaceId: ws.id }));
    const marks = await primary`select 1 from app_meta.read_marks where caller = ${`member:${ws.owner.id}`}`;
    expect(marks).toHaveLength(0);
  });

  test("RLS on the replica as on the primary: an outsider's read of another workspace's contacts finds none", async () => {
    const ws = await createWorkspace(primary);
    await insertContact(primary, ws.id);
    const outsider = await createUser(primary);
    await pair.caughtUp();
    let seen = -1;
    const delta = await counted(async () => {
      seen = await total(
        await withReadUser(outsider.claims, (db) => getContacts(db, { workspaceId: ws.id })),
      );
    });
    expect(delta).toEqual({ "replica/replica": 1 });
    expect(seen).toBe(0);
    // and the service door's read on the replica (RLS bypassed) does see it
    const [{ n }] = await withReadService(
      (db) => db`select count(*)::int as n from contacts where workspace_id = ${ws.id}`,
    );
    expect(n).toBe(1);
  });

  test("a replica that cannot write: a write through the read door fails and stores nothing", async () => {
    const ws = await createWorkspace(primary);
    await pair.caughtUp();
    await expect(
      withReadUser(ws.owner.claims, (db) =>
        createContact(db, { workspaceId: ws.id, email: "nope@example.test" }),
      ),
    ).rejects.toThrow(/read-only/);
    const [{ n }] = await primary`select count(*)::int as n from contacts where workspace_id = ${ws.id}`;
    expect(n).toBe(0);
  });

  test("lag beyond DATABASE_READ_MAX_LAG_MS: reads fall back to the primary and see the latest rows", async () => {
    vi.stubEnv("DATABASE_READ_MAX_LAG_MS", "100");
    const ws = await createWorkspace(primary);
    await pair.caughtUp();
    await new Promise((resolve) => setTimeout(resolve, 150)); // the last replayed commit is older than the bound
    await insertContact(primary, ws.id);
    let seen = -1;
    const delta = await counted(async () => {
      seen = await total(
        await withReadUser(ws.owner.claims, (db) => getContacts(db, { workspaceId: ws.id })),
      );
    });
    expect(delta).toEqual({ "primary/lagging": 1 });
    expect(seen).toBe(1);
  });

  test("GET /api/ready reports the replica's lag and stays ready", async () => {
    await pair.caughtUp();
    const ready = await webReadiness();
    expect(ready.ready).toBe(true);
    expect(ready.checks.replica_lag_seconds).toBeGreaterThanOrEqual(0);
  });

  test("the v1 API: a key's list reads the replica, and the key sees its own create at once", async () => {
    const ws = await createWorkspace(primary);
    const key = await apiKey(primary, ws.id, ["contacts:read", "contacts:write"]);
    await pair.caughtUp();
    const created = await call(v1Contacts.POST, {
      method: "POST",
      key: key.raw,
      body: { email: "via-key@example.test" },
    });
    expect(created.status).toBe(201);
    const list = () => call(v1Contacts.GET, { key: key.raw });
    let listed: Awaited<ReturnType<typeof list>> | undefined;
    const own = await counted(async () => {
      listed = await list();
    });
    expect(listed?.status).toBe(200);
    expect(listed?.body.data.map((c: { email: string }) => c.email)).toEqual(["via-key@example.test"]);
    // on the primary while the replica is behind the key's mark (on a slow machine it may have
    // replayed it already: then the replica, which has the row too)
    expect([{ "primary/own_write": 1 }, { "replica/replica": 1 }]).toContainEqual(own);
    await pair.caughtUp();
    const later = await counted(async () => {
      listed = await list();
    });
    expect(listed?.body.data).toHaveLength(1);
    expect(later).toEqual({ "replica/replica": 1 }); // replayed past the key's mark
  });

  test("reads go on when the replica is stopped: served by the primary, and /api/ready says the lag is unknown", async () => {
    const ws = await createWorkspace(primary);
    await insertContact(primary, ws.id);
    await pair.replica.stop("immediate");
    let seen = -1;
    const delta = await counted(async () => {
      seen = await total(
        await withReadUser(ws.owner.claims, (db) => getContacts(db, { workspaceId: ws.id })),
      );
    });
    expect(seen).toBe(1);
    expect(Object.keys(delta)).toHaveLength(1);
    expect(Object.keys(delta)[0]).toMatch(/^primary\/(replica_down|replica_error)$/);
    // and the next read does not wait on the dead replica again within the retry period
    const started = performance.now();
    expect(
      await total(await withReadUser(ws.owner.claims, (db) => getContacts(db, { workspaceId: ws.id }))),
    ).toBe(1);
    expect(performance.now() - started).toBeLessThan(500);
    const ready = await webReadiness();
    expect(ready.ready).toBe(true);
    expect(ready.checks.replica_lag_seconds).toBe(-1);
  });
});
