import { describe, expect, test } from "vitest";
import { queueContactImport } from "@/lib/contacts/import/queue-contact-import";
import { withService } from "@/lib/db/doors";
import { enqueueTicketingSync } from "@/lib/events/ticketing/enqueue-ticketing-sync";
import { VERSION_KEY } from "@/lib/jobs/contract";
import { enqueue, type JobRequest } from "@/lib/jobs/enqueue";
import { QUEUES, SCHEDULES, type QueueName } from "@/lib/jobs/queues";
import { enqueuePaymentsBackfill } from "@/lib/payments/enqueue-payments-backfill";
import { HANDLERS } from "@/worker/registry";
import { setupTestDatabase } from "../helpers/db";
import { createWorkspace, type TestWorkspace } from "../helpers/factories";
import { jobById, jobsOf } from "../helpers/jobs";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

const db = setupTestDatabase();
const workers = setupWorkers(db);

/** A stored dashboard upload of two contacts with its 'contact-import' job, as the upload route leaves it. */
async function queuedImport(ws: TestWorkspace) {
  const csv = "Email,First Name\none@example.test,One\ntwo@example.test,Two\n";
  const queued = await withService((tx) =>
    queueContactImport(tx, {
      workspaceId: ws.id,
      userId: ws.owner.id,
      fileName: "people.csv",
      content: new TextEncoder().encode(csv),
      markSubscribed: false,
      uploaderIp: null,
    }),
  );
  if (!("data" in queued)) throw queued.error;
  const importId = queued.data.id;
  const job = (await jobsOf(db.sql, ws.id)).find((j) => j.data.importId === importId)!;
  return { importId, job };
}

const importOf = async (id: string) =>
  (
    await db.sql`select status, rows_done, content is not null as has_content from contact_imports where id = ${id}`
  )[0];
const contactsOf = (wsId: string) => db.sql`select email from contacts where workspace_id = ${wsId}`;

describe("jobs with contracts: one definition per queue, checked on both sides", () => {
  test("every queue has one handler, bound to its own contract", () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(Object.keys(QUEUES).sort());
    for (const [queue, handler] of Object.entries(HANDLERS)) expect(handler.queue).toBe(queue);
  });

  test("enqueue refuses a payload its contract refuses, by its types and at run time, and stores nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const id = ws.id;
    const inTx = <Q extends QueueName>(job: JobRequest<Q>) => withService((tx) => enqueue(tx, job));
    const attempts = [
      // @ts-expect-error the contract's importId is an id, not a number
      () => inTx({ queue: "contact-import", data: { workspaceId: id, importId: 42 } }),
      // @ts-expect-error a contact import names its import
      () => inTx({ queue: "contact-import", data: { workspaceId: id } }),
      // @ts-expect-error a broadcast job's payload is not an import's
      () => inTx({ queue: "broadcast", data: { workspaceId: id, importId: id } }),
      // @ts-expect-error no such queue
      () => inTx({ queue: "import-contacts", data: { workspaceId: id } }),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow();
    expect(await jobsOf(db.sql, ws.id)).toEqual([]);
  });

  test("every job records its contract's version: the areas' enqueues and the sweeps' schedules", async () => {
    const ws = await createWorkspace(db.sql);
    await queuedImport(ws);
    await withService(async (tx) => {
      await enqueueTicketingSync(tx, ws.id);
      await enqueuePaymentsBackfill(tx, ws.id);
    });
    const jobs = await jobsOf(db.sql, ws.id);
    expect(jobs.map((j) => [j.name, j.data[VERSION_KEY]]).sort()).toEqual([
      ["contact-import", QUEUES["contact-import"].version],
      ["payments-backfill", QUEUES["payments-backfill"].version],
      ["ticketing-sync", QUEUES["ticketing-sync"].version],
    ]);

    await workers.inProcess([]);
    await waitFor(
      async () => (await db.sql`select count(*)::int as n from pgboss.schedule`)[0].n >= SCHEDULES.length,
      "the schedules registered",
    );
    const schedules = await db.sql`select name, data from pgboss.schedule order by name`;
    expect(schedules.map((s) => [s.name, s.data[VERSION_KEY]])).toEqual(
      SCHEDULES.map((s) => [s.queue, QUEUES[s.queue].version]).sort(),
    );
  });

  test("the worker fails a job whose payload its contract refuses at once, with the schema's message, and does nothing", async () => {
    const ws = await createWorkspace(db.sql);
    const { importId, job } = await queuedImport(ws);
    // a payload that lost its workspace (as a job written by another release could): its import is intact
    await db.sql`update pgboss.job set data = data - 'workspaceId' where id = ${job.id}`;
    await workers.inProcess(["contact-import"]);
    await waitFor(async () => (await jobById(db.sql, job.id))?.state === "failed", "the job failed", 20_000);

    const failed = (await jobById(db.sql, job.id))!;
    expect(failed.retry_count).toBe(0); // not retried: its retries are left unused
    expect(failed.retry_limit).toBe(QUEUES["contact-import"].options.retryLimit);
    expect(failed.output?.message).toBe(
      "The 'contact-import' job's payload does not match its contract (version 1): " +
        "workspaceId: Not a valid id.",
    );
    expect(await importOf(importId)).toEqual({ status: "queued", rows_done: 0, has_content: true });
    expect(await contactsOf(ws.id)).toEqual([]);
  });

  test("the worker fails a job of a payload version it no longer reads at once; a newer version is left to a newer worker", async () => {
    const ws = await createWorkspace(db.sql);
    const older = await queuedImport(ws);
    const newer = await queuedImport(ws);
    const version = QUEUES["contact-import"].version;
    await db.sql`update pgboss.job set data = data || ${db.sql.json({ [VERSION_KEY]: version - 1 })}
                 where id = ${older.job.id}`;
    await db.sql`update pgboss.job set data = data || ${db.sql.json({ [VERSION_KEY]: version + 1 })}
                 where id = ${newer.job.id}`;
    await workers.inProcess(["contact-import"]);
    await waitFor(
      async () =>
        (await jobById(db.sql, older.job.id))?.state === "failed" &&
        (await jobById(db.sql, newer.job.id))?.state === "retry",
      "the old job failed, the newer one waiting for its retry",
      20_000,
    );
    expect((await jobById(db.sql, older.job.id))!).toMatchObject({
      retry_count: 0,
      output: {
        message: `The 'contact-import' job has payload version ${version - 1}; this worker reads version ${version} only.`,
      },
    });
    expect((await jobById(db.sql, newer.job.id))!.output?.message).toBe(
      `The 'contact-import' job has payload version ${version + 1}, newer than this worker's ${version}: left to a newer worker.`,
    );
    for (const { importId } of [older, newer]) expect((await importOf(importId)).status).toBe("queued");
    expect(await contactsOf(ws.id)).toEqual([]);
  });
});
