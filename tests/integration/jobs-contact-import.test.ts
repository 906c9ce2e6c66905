import { describe, expect, test } from "vitest";
import { signIn } from "../helpers/member-session";
import { POST } from "@/app/api/contacts/import/route";
import { BROWSER_IMPORT_MAX_BYTES } from "@/lib/contacts/import-contacts-csv";
import { FILE_ERRORS } from "@/lib/contacts/import/read-csv";
import {
  runContactImport,
  SECOND_FACTOR_MISSING,
  UPLOADER_GONE,
} from "@/lib/contacts/flows/run-contact-import";
import { getContactImport, listContactImports } from "@/lib/contacts/import/list-contact-imports";
import { NO_EMAIL_COLUMN } from "@/lib/contacts/import/csv-columns";
import { withUser } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { jobsOf } from "../helpers/jobs";
import { attempt } from "../helpers/rls";
import { waitFor } from "../helpers/wait-for";
import { setupWorkers } from "../helpers/workers";

const db = setupTestDatabase();
const workers = setupWorkers(db);
const THRESHOLD = 300;
process.env.IMPORT_JOB_THRESHOLD_BYTES = String(THRESHOLD);

/** The dashboard's upload, as the browser sends it; answers the stream's last line. */
async function upload(ws: TestWorkspace, csv: string, query = "") {
  signIn(ws.owner.claims);
  const body = new TextEncoder().encode(csv);
  const res = await POST(
    new Request(`http://localhost:3000/api/contacts/import?filename=big.csv${query}`, {
      method: "POST",
      headers: { "content-type": "text/csv", "content-length": String(body.byteLength) },
      body,
    }),
  );
  const lines = (await res.text()).trim().split("\n");
  return JSON.parse(lines.at(-1)!);
}

/** The upload sent chunked, as a client that does not declare its length sends it. */
function chunkedUpload(ws: TestWorkspace, parts: AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
  signIn(ws.owner.claims);
  const iterator =
    Symbol.asyncIterator in parts
      ? parts[Symbol.asyncIterator]()
      : (parts as Iterable<Uint8Array>)[Symbol.iterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
  });
  return POST(
    new Request("http://localhost:3000/api/contacts/import?filename=big.csv", {
      method: "POST",
      headers: { "content-type": "text/csv" },
      body,
      duplex: "half",
    } as RequestInit),
  );
}

function* chunksOf(bytes: Uint8Array, size: number) {
  for (let i = 0; i < bytes.byteLength; i += size) yield bytes.slice(i, i + size);
}

/** A file of `n` contacts, each with a tag and a note, above the test's threshold. */
function bigCsv(n: number, extra: string[] = []): string {
  const rows = Array.from({ length: n }, (_, i) => `person${i}@example.test,Person ${i},vip,Note ${i}`);
  const csv = ["Email,First Name,Tags,Notes", ...rows, ...extra].join("\n");
  expect(csv.length).toBeGreaterThan(THRESHOLD);
  return csv;
}

const importRow = async (id: string) =>
  (await db.sql`select *, content is not null as has_content from contact_imports where id = ${id}`)[0];
const contactsOf = (wsId: string) =>
  db.sql`select email, first_name, created_by from contacts where workspace_id = ${wsId} order by email`;

describe("jobs: a dashboard CSV import above the threshold runs as a job", () => {
  test("4.15 as a job: the upload is stored with a queued job; the worker imports every row once, progress reaches rows_total, the file is cleared", async () => {
    const ws = await createWorkspace(db.sql);
    const answer = await upload(ws, bigCsv(40), "&subscribed=1");
    expect(answer.type).toBe("queued");

    const queued = await importRow(answer.importId);
    expect(queued).toMatchObject({
      workspace_id: ws.id,
      created_by: ws.owner.id,
      file_name: "big.csv",
      status: "queued",
      rows_total: 40,
      rows_done: 0,
      has_content: true,
      mark_subscribed: true,
    });
    const jobs = await jobsOf(db.sql, ws.id);
    expect(jobs.map((j) => [j.name, j.data.importId])).toEqual([["contact-import", answer.importId]]);
    expect(await contactsOf(ws.id)).toEqual([]); // nothing imported in the request

    await workers.inProcess(["contact-import"]);
    await waitFor(
      async () => (await importRow(answer.importId)).status === "succeeded",
      "the import done",
      60_000,
    );

    const done = await importRow(answer.importId);
    expect(done).toMatchObject({
      rows_total: 40,
      rows_done: 40,
      has_content: false,
      attempts: 1,
      error: null,
    });
    expect(done.finished_at).not.toBeNull();
    expect(done.result).toMatchObject({
      rowsRead: 40,
      created: 40,
      subscribed: 40,
      notesAdded: 40,
      tagsCreated: 1,
    });
    const contacts = await contactsOf(ws.id);
    expect(contacts).toHaveLength(40);
    expect(new Set(contacts.map((c) => c.email)).size).toBe(40);
    // imported as the uploader, as the synchronous path does
    expect(contacts.every((c) => c.created_by === ws.owner.id)).toBe(true);
    const [counts] = await db.sql`
      select (select count(*)::int from notes where workspace_id = ${ws.id}) as notes,
             (select count(*)::int from contact_tags where workspace_id = ${ws.id}) as tagged,
             (select count(*)::int from consent_events where workspace_id = ${ws.id} and flow = 'csv_import') as consents`;
    expect(counts).toEqual({ notes: 40, tagged: 40, consents: 40 });
    await waitFor(
      async () => (await jobsOf(db.sql, ws.id)).every((j) => j.state === "completed"),
      "the job completed",
    );
  }, 120_000);

  test.runIf(process.env.TEST_DB === "postgres")(
    "progress is committed apart from the import, so it is visible while the import's transaction is open",
    async () => {
      const ws = await createWorkspace(db.sql);
      const answer = await upload(ws, bigCsv(40));
      // hold the contacts table: the import reads every row, then waits at its first write
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      const holder = db.sql.begin(async (tx) => {
        await tx`lock table contacts in share mode`;
        await held;
      });
      const run = runContactImport(answer.importId);
      try {
        await waitFor(
          async () => (await importRow(answer.importId)).phase === "contacts",
          "the saving phase visible",
        );
        expect(await importRow(answer.importId)).toMatchObject({
          status: "running",
          rows_done: 40,
          rows_total: 40,
        });
        expect(await contactsOf(ws.id)).toEqual([]);
      } finally {
        release();
        await holder;
      }
      expect(await run).toEqual({ status: "done", output: { status: "succeeded" } });
      expect(await importRow(answer.importId)).toMatchObject({
        status: "succeeded",
        phase: null,
        rows_done: 40,
      });
    },
    60_000,
  );

  test("below the threshold the upload is imported in the request, as before: no stored import, no job", async () => {
    const ws = await createWorkspace(db.sql);
    const answer = await upload(ws, "Email,First Name\nsmall@example.test,Small\n");
    expect(answer.type).toBe("done");
    expect(answer.report.created).toBe(1);
    expect(await db.sql`select id from contact_imports where workspace_id = ${ws.id}`).toEqual([]);
    expect(await jobsOf(db.sql, ws.id)).toEqual([]);
  });

  test("a chunked upload with no Content-Length above the threshold is counted and goes to the job path, not the request", async () => {
    const ws = await createWorkspace(db.sql);
    const csv = new TextEncoder().encode(bigCsv(40));
    const answer = await chunkedUpload(ws, chunksOf(csv, 64));
    expect(answer.status).toBe(200);
    const lines = (await answer.text()).trim().split("\n");
    const last = JSON.parse(lines.at(-1)!);
    expect(last.type).toBe("queued");
    expect(await contactsOf(ws.id)).toEqual([]); // nothing imported in the request
    const stored = await importRow(last.importId);
    expect(stored).toMatchObject({
      workspace_id: ws.id,
      status: "queued",
      rows_total: 40,
      has_content: true,
    });
    expect((await jobsOf(db.sql, ws.id)).map((j) => j.data.importId)).toEqual([last.importId]);

    // below the threshold, chunked, it is imported in the request as before
    const small = await chunkedUpload(
      ws,
      chunksOf(new TextEncoder().encode("Email\nsmall@example.test\n"), 8),
    );
    expect(JSON.parse((await small.text()).trim().split("\n").at(-1)!)).toMatchObject({ type: "done" });
  });

  test("a chunked upload past the browser limit is refused with 413 and nothing is stored", async () => {
    const ws = await createWorkspace(db.sql);
    const header = new TextEncoder().encode("Email\n");
    const mb = new TextEncoder().encode("x@example.test\n".repeat(65_536)); // ~1 MB
    let sent = 0;
    async function* endless() {
      yield header;
      for (; sent <= BROWSER_IMPORT_MAX_BYTES; sent += mb.byteLength) yield mb;
    }
    const res = await chunkedUpload(ws, endless());
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({
      success: false,
      error: FILE_ERRORS.tooLarge(BROWSER_IMPORT_MAX_BYTES),
      code: "too_large",
    });
    expect(sent).toBeLessThanOrEqual(BROWSER_IMPORT_MAX_BYTES + mb.byteLength);
    expect(await db.sql`select id from contact_imports where workspace_id = ${ws.id}`).toEqual([]);
    expect(await jobsOf(db.sql, ws.id)).toEqual([]);
    expect(await contactsOf(ws.id)).toEqual([]);
  });

  test("4.15 'a critical error rolls everything back': a file the worker finds without an email column fails with the import's message, nothing imported, file cleared", async () => {
    const ws = await createWorkspace(db.sql);
    const csv = ["Name,Phone", ...Array.from({ length: 30 }, (_, i) => `Person ${i},555010${i}`)].join("\n");
    const answer = await upload(ws, csv);
    expect(answer.type).toBe("queued");
    expect(await runContactImport(answer.importId)).toMatchObject({
      status: "failed",
      message: NO_EMAIL_COLUMN,
    });
    expect(await importRow(answer.importId)).toMatchObject({
      status: "failed",
      error: NO_EMAIL_COLUMN,
      has_content: false,
      result: null,
    });
    expect(await contactsOf(ws.id)).toEqual([]);
  });

  test("4.15 atomic import: a database error after rows were written rolls all of them back; the retry imports each row exactly once", async () => {
    const ws = await createWorkspace(db.sql);
    // the second occurrence of an email is applied in a later statement, after every first one
    const answer = await upload(ws, bigCsv(20, ["person0@example.test,Boom,,Second note"]));
    await db.sql`alter table contacts add constraint test_no_boom check (first_name is distinct from 'Boom') not valid`;
    try {
      await expect(runContactImport(answer.importId)).rejects.toThrow(/test_no_boom/);
      expect(await contactsOf(ws.id)).toEqual([]);
      expect(await db.sql`select id from notes where workspace_id = ${ws.id}`).toEqual([]);
      const retrying = await importRow(answer.importId);
      expect(retrying).toMatchObject({ status: "queued", has_content: true, attempts: 1 });
      expect(retrying.error).toMatch(/Attempt 1 failed and was rolled back; it will be retried/);
    } finally {
      await db.sql`alter table contacts drop constraint test_no_boom`;
    }
    expect(await runContactImport(answer.importId)).toEqual({
      status: "done",
      output: { status: "succeeded" },
    });
    expect(await contactsOf(ws.id)).toHaveLength(20);
    const [{ notes }] = await db.sql`select count(*)::int as notes from notes where workspace_id = ${ws.id}`;
    expect(notes).toBe(21);
    expect(await importRow(answer.importId)).toMatchObject({ status: "succeeded", attempts: 2, error: null });
    // a late rerun of the job (the engine retrying a finished attempt) changes nothing
    expect(await runContactImport(answer.importId)).toEqual({
      status: "done",
      output: { status: "skipped" },
    });
    expect(await contactsOf(ws.id)).toHaveLength(20);
  });

  test("a critical error on the last attempt marks the import failed with the reason and clears the file", async () => {
    const ws = await createWorkspace(db.sql);
    const answer = await upload(ws, bigCsv(20, ["person0@example.test,Boom"]));
    await db.sql`alter table contacts add constraint test_no_boom check (first_name is distinct from 'Boom') not valid`;
    try {
      await expect(runContactImport(answer.importId, { lastAttempt: true })).rejects.toThrow();
    } finally {
      await db.sql`alter table contacts drop constraint test_no_boom`;
    }
    const failed = await importRow(answer.importId);
    expect(failed).toMatchObject({ status: "failed", has_content: false });
    expect(failed.error).toMatch(
      /^The import failed and was rolled back: nothing was changed\. \(.*test_no_boom/,
    );
    expect(await contactsOf(ws.id)).toEqual([]);
  });

  test("second factor at the database: an upload admitted at aal2 in a workspace that requires two-factor is imported by the job (it acts for the admitted upload)", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`insert into workspace_security (workspace_id, require_two_factor) values (${ws.id}, true)`;
    const owner = { ...ws.owner, claims: { ...ws.owner.claims, aal: "aal2" as const } };
    const answer = await upload({ ...ws, owner }, bigCsv(20));
    expect(await runContactImport(answer.importId)).toEqual({
      status: "done",
      output: { status: "succeeded" },
    });
    expect(await contactsOf(ws.id)).toHaveLength(20);
    expect(await importRow(answer.importId)).toMatchObject({
      status: "succeeded",
      has_content: false,
      uploader_aal: "aal2",
    });
  });

  test("second factor at the database: an upload from a session without two-factor, in a workspace that has required it since, is refused by the job, nothing imported (the job never acts above the session's level)", async () => {
    const ws = await createWorkspace(db.sql);
    const answer = await upload(ws, bigCsv(20));
    expect(await importRow(answer.importId)).toMatchObject({ uploader_aal: "aal1" });
    await db.sql`insert into workspace_security (workspace_id, require_two_factor) values (${ws.id}, true)`;
    expect(await runContactImport(answer.importId)).toEqual({
      status: "failed",
      code: "forbidden",
      message: SECOND_FACTOR_MISSING,
    });
    expect(await importRow(answer.importId)).toMatchObject({
      status: "failed",
      error: SECOND_FACTOR_MISSING,
      has_content: false,
    });
    expect(await contactsOf(ws.id)).toEqual([]);
  });

  test("an uploader who left the workspace before the job ran: nothing is imported, the import says why", async () => {
    const ws = await createWorkspace(db.sql);
    const uploader = await addMember(db.sql, ws.id, "member");
    const answer = await upload({ ...ws, owner: uploader }, bigCsv(20));
    await db.sql`delete from workspace_members where workspace_id = ${ws.id} and user_id = ${uploader.id}`;
    expect(await runContactImport(answer.importId)).toEqual({
      status: "failed",
      code: "forbidden",
      message: UPLOADER_GONE,
    });
    expect(await importRow(answer.importId)).toMatchObject({
      status: "failed",
      error: UPLOADER_GONE,
      has_content: false,
    });
    expect(await contactsOf(ws.id)).toEqual([]);
  });

  test("5.4: members see their workspace's imports, without the file or the IP; a member of another workspace sees none", async () => {
    const ws = await createWorkspace(db.sql);
    const colleague = await addMember(db.sql, ws.id, "member");
    const other = await createWorkspace(db.sql);
    const answer = await upload(ws, bigCsv(20));

    const seen = await withUser(colleague.claims, (tx) => listContactImports(tx, ws.id));
    expect(seen.map((i) => [i.id, i.status, i.rowsTotal])).toEqual([[answer.importId, "queued", 20]]);
    const denied = await attempt(() =>
      withUser(colleague.claims, (tx) => tx`select content, uploader_ip from contact_imports`),
    );
    expect(denied).toEqual({ ok: false, code: "42501" });

    // the outsider names the workspace and the import: RLS shows nothing
    expect(await withUser(other.owner.claims, (tx) => listContactImports(tx, ws.id))).toEqual([]);
    expect(
      await withUser(other.owner.claims, (tx) =>
        getContactImport(tx, { workspaceId: ws.id, importId: answer.importId }),
      ),
    ).toBeNull();
    const [{ n }] = await withUser(
      other.owner.claims,
      (tx) => tx`select count(*)::int as n from contact_imports`,
    );
    expect(n).toBe(0);
  });

  test("audit log: an import writes one contacts.imported row, in the request or when queued, with counts and no address", async () => {
    const ws = await createWorkspace(db.sql);
    const small = await upload(ws, "Email\nsmall@example.test");
    expect(small.type).toBe("done");
    const big = await upload(ws, bigCsv(20));
    expect(big.type).toBe("queued");
    const rows = await db.sql`
      select action, actor_id, target_type, target_id, after from audit_log where workspace_id = ${ws.id} order by id`;
    expect(rows.map((r) => [r.action, r.actor_id])).toEqual([
      ["contacts.imported", ws.owner.id],
      ["contacts.imported", ws.owner.id],
    ]);
    expect(rows[1]).toMatchObject({ target_type: "contact_import", target_id: big.importId });
    expect(JSON.stringify(rows)).not.toContain("@example.test");
  });
});
