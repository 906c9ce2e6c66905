import { describe, expect, test } from "vitest";
import { withService } from "@/lib/db/doors";
import { enqueue } from "@/lib/jobs/enqueue";
import { WORKSPACE_JOBS_INDEX } from "@/lib/jobs/flows/start-worker";
import { listWorkspaceJobs } from "@/lib/jobs/list-workspace-jobs";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace } from "../helpers/factories";
import { setupWorkers } from "../helpers/workers";

const db = setupTestDatabase();
const workers = setupWorkers(db);

/** Every table holding jobs (pg-boss's partitioned job table and its partitions) with its workspace index, if any. */
const indexedTables = () => db.sql`
  select c.relname as table, i.indexname as index
  from pg_class c
  join pg_namespace n on n.oid = c.relnamespace and n.nspname = 'pgboss'
  left join pg_indexes i on i.schemaname = 'pgboss' and i.tablename = c.relname and i.indexdef like '%workspaceId%'
  where c.oid = 'pgboss.job'::regclass or c.oid in (select inhrelid from pg_inherits where inhparent = 'pgboss.job'::regclass)`;

describe("the jobs page: its workspace filter is indexed", () => {
  test("the index is on pg-boss's job table and every partition, and a worker's start leaves it as it is", async () => {
    const before = await indexedTables();
    expect(before.length).toBeGreaterThan(1);
    expect(before.filter((t) => !t.index)).toEqual([]);
    expect(before.find((t) => t.table === "job")?.index).toBe(WORKSPACE_JOBS_INDEX);
    await workers.inProcess(["sweep-rate-limit-hits"]);
    expect(await indexedTables()).toEqual(before);
  });

  test("the page still lists a workspace's own jobs, newest first", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    await withService(async (tx) => {
      await enqueue(tx, { queue: "ticketing-sync", data: { workspaceId: ws.id } });
      await enqueue(tx, { queue: "payments-backfill", data: { workspaceId: ws.id } });
      await enqueue(tx, { queue: "ticketing-sync", data: { workspaceId: other.id } });
    });
    const jobs = await withService((tx) => listWorkspaceJobs(tx, ws.id));
    expect(jobs.map((j) => j.queue).sort()).toEqual(["payments-backfill", "ticketing-sync"]);
  });
});
