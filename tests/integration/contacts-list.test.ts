import { AppError } from "@/lib/errors/app-error";
import { describe, expect, test } from "vitest";
import { getContacts, type ContactsPage } from "@/lib/contacts/get-contacts";
import type { GetContactsParams } from "@/lib/contacts/get-contacts-params";
import { withUser, type Claims } from "@/lib/db/doors";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace } from "../helpers/factories";

const db = setupTestDatabase();

async function list(claims: Claims, params: GetContactsParams): Promise<ContactsPage> {
  const result = await withUser(claims, (tx) => getContacts(tx, params));
  if ("error" in result) throw result.error;
  return result;
}

/** Every matching id, following the pages. */
async function allIds(claims: Claims, params: GetContactsParams): Promise<string[]> {
  const ids: string[] = [];
  for (let page = 1; ; page++) {
    const result = await list(claims, { ...params, page, pageSize: 100 });
    ids.push(...result.data.map((c) => c.id));
    if (result.data.length < 100) {
      expect(result.total).toBe(ids.length);
      return ids;
    }
  }
}

/** A deterministic pseudo-random generator, so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };
}

describe("4.15 getContacts tag resolution, against a brute-force reference on random data", () => {
  test("4.15 tags: 'any' is the union, 'all' the intersection, excludeTagIds subtracts (from all when no include)", async () => {
    const rnd = random(20261121);
    const ws = await createWorkspace(db.sql);
    const contacts = await db.sql`
      insert into contacts (workspace_id, email)
      select ${ws.id}, 'c' || i || '@example.test' from generate_series(1, 120) i
      returning id`;
    const tags = await db.sql`
      insert into tags (workspace_id, name) select ${ws.id}, 'tag' || i from generate_series(1, 6) i returning id`;
    const holders = new Map<string, Set<string>>(tags.map((t) => [t.id, new Set<string>()]));
    const pairs: { contact_id: string; tag_id: string }[] = [];
    for (const c of contacts)
      for (const t of tags)
        if (rnd() < 0.35) {
          pairs.push({ contact_id: c.id, tag_id: t.id });
          holders.get(t.id)!.add(c.id);
        }
    await db.sql`insert into contact_tags ${db.sql(pairs)}`;
    // a tag and holders in another workspace must never leak in
    const other = await createWorkspace(db.sql);
    const foreign = await createContact(db.sql, other.id);
    const [foreignTag] =
      await db.sql`insert into tags (workspace_id, name) values (${other.id}, 'x') returning id`;
    await db.sql`insert into contact_tags (contact_id, tag_id) values (${foreign.id}, ${foreignTag.id})`;

    const everyone = new Set<string>(contacts.map((c) => c.id));
    const pick = () => tags.filter(() => rnd() < 0.3).map((t) => t.id as string);
    for (let round = 0; round < 25; round++) {
      const include = pick();
      const exclude = pick();
      const mode = rnd() < 0.5 ? "any" : "all";
      let expected: Set<string>;
      if (include.length === 0) expected = new Set(everyone);
      else if (mode === "any") expected = new Set(include.flatMap((t) => [...holders.get(t)!]));
      else expected = new Set([...everyone].filter((c) => include.every((t) => holders.get(t)!.has(c))));
      for (const t of exclude) for (const c of holders.get(t)!) expected.delete(c);

      const useLegacy = include.length === 1 && rnd() < 0.5;
      const got = await allIds(ws.owner.claims, {
        workspaceId: ws.id,
        ...(useLegacy ? { tagId: include[0] } : { tagIds: include }),
        tagMode: mode,
        excludeTagIds: exclude,
      });
      expect(new Set(got).size).toBe(got.length); // no duplicates
      expect(new Set(got)).toEqual(expected);
    }

    // a foreign tag holds nobody here: 'all' with it is empty, excluding it removes nobody
    const withForeign = await allIds(ws.owner.claims, {
      workspaceId: ws.id,
      tagIds: [tags[0].id, foreignTag.id],
      tagMode: "all",
    });
    expect(withForeign).toEqual([]);
    expect(
      await allIds(ws.owner.claims, { workspaceId: ws.id, excludeTagIds: [foreignTag.id] }),
    ).toHaveLength(120);
  });
});

describe("4.15 getContacts total count", () => {
  test("4.15 total: kept per-source counts stay exact through inserts, deletes, source changes and moves", async () => {
    const ws = await createWorkspace(db.sql);
    const other = await createWorkspace(db.sql);
    const [vip] = await db.sql`insert into tags (workspace_id, name) values (${ws.id}, 'VIP') returning id`;
    await db.sql`insert into contacts (workspace_id, email, source)
      select ${ws.id}, 'n' || i || '@x.test', (array['form', 'import', 'manual'])[1 + i % 3] from generate_series(1, 60) i`;
    await db.sql`insert into contact_tags (contact_id, tag_id)
      select id, ${vip.id} from contacts where workspace_id = ${ws.id} and email like 'n1%'`;
    await db.sql`delete from contacts where workspace_id = ${ws.id} and email like 'n2%'`;
    // an owner may change sources (the protection trigger lets them): contacts move between counters
    await withUser(
      ws.owner.claims,
      (tx) => tx`update contacts set source = 'event' where workspace_id = ${ws.id} and email like 'n3%'`,
    );
    const [{ moved }] = await db.sql`select count(*)::int as moved from contacts where source = 'event'`;
    expect(moved).toBe(11);
    await db.sql`update contacts set first_name = 'x' where workspace_id = ${ws.id}`;
    await db.sql`insert into contacts (workspace_id, email, source) values (${other.id}, 'o@x.test', 'form')`;

    const check = async (
      params: Partial<GetContactsParams>,
      where: (c: { source: string; vip: boolean }) => boolean,
    ) => {
      const rows =
        await db.sql`select c.source, exists (select 1 from contact_tags ct where ct.contact_id = c.id) as vip
        from contacts c where c.workspace_id = ${ws.id}`;
      const expected = rows.filter((r) => where(r as never)).length;
      const got = await list(ws.owner.claims, { workspaceId: ws.id, ...params });
      expect({ params, total: got.total }).toEqual({ params, total: expected });
    };
    await check({}, () => true);
    for (const source of ["form", "import", "manual", "event"]) {
      await check({ source }, (c) => c.source === source);
      await check({ source, excludeTagIds: [vip.id] }, (c) => c.source === source && !c.vip);
    }
    await check({ excludeTagIds: [vip.id] }, (c) => !c.vip);
    await check({ tagIds: [vip.id], source: "form" }, (c) => c.vip && c.source === "form");
  });

  test("4.15 total: deleting a workspace with contacts removes its counts and nothing fails", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id);
    await db.sql`delete from workspaces where id = ${ws.id}`;
    const [{ n }] = await db.sql`select count(*)::int as n from contact_counts where workspace_id = ${ws.id}`;
    expect(n).toBe(0);
  });
});

describe("4.15 getContacts filters, sorting and paging", () => {
  test("4.15 pageSize: default 25, at most 100; the total counts every match", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`insert into contacts (workspace_id, email)
      select ${ws.id}, 'p' || i || '@example.test' from generate_series(1, 130) i`;
    const first = await list(ws.owner.claims, { workspaceId: ws.id });
    expect([first.data.length, first.total, first.page, first.pageSize]).toEqual([25, 130, 1, 25]);
    const big = await list(ws.owner.claims, { workspaceId: ws.id, pageSize: 500 });
    expect([big.data.length, big.pageSize]).toEqual([100, 100]);
    const last = await list(ws.owner.claims, { workspaceId: ws.id, page: 6, pageSize: 25 });
    expect(last.data.length).toBe(5);
    const beyond = await list(ws.owner.claims, { workspaceId: ws.id, page: 99 });
    expect([beyond.data.length, beyond.total]).toEqual([0, 130]);
  });

  test("4.15 sortBy created_at (default, desc), name (first then last name) and source, both directions", async () => {
    const ws = await createWorkspace(db.sql);
    const t = (d: number) => new Date(Date.UTC(2026, 0, d));
    const rows = [
      { email: "a@x.test", first_name: "Bea", last_name: "Zed", source: "form", created_at: t(3) },
      { email: "b@x.test", first_name: "Ann", last_name: "Young", source: "manual", created_at: t(1) },
      { email: "c@x.test", first_name: "Bea", last_name: "Able", source: "event", created_at: t(2) },
      { email: "d@x.test", first_name: "Cal", last_name: null, source: "form", created_at: t(4) },
    ].map((r) => ({ ...r, workspace_id: ws.id }));
    await db.sql`insert into contacts ${db.sql(rows)}`;
    const emails = async (p: Partial<GetContactsParams>) =>
      (await list(ws.owner.claims, { workspaceId: ws.id, ...p })).data.map((c) => c.email);
    expect(await emails({})).toEqual(["d@x.test", "a@x.test", "c@x.test", "b@x.test"]);
    expect(await emails({ sortDir: "asc" })).toEqual(["b@x.test", "c@x.test", "a@x.test", "d@x.test"]);
    expect(await emails({ sortBy: "name", sortDir: "asc" })).toEqual([
      "b@x.test",
      "c@x.test",
      "a@x.test",
      "d@x.test",
    ]);
    expect(await emails({ sortBy: "name", sortDir: "desc" })).toEqual([
      "d@x.test",
      "a@x.test",
      "c@x.test",
      "b@x.test",
    ]);
    expect(await emails({ sortBy: "source", sortDir: "asc" })).toEqual([
      "c@x.test",
      "a@x.test",
      "d@x.test",
      "b@x.test",
    ]);
    expect(await emails({ sortBy: "source", sortDir: "desc" })).toEqual([
      "b@x.test",
      "d@x.test",
      "a@x.test",
      "c@x.test",
    ]);
  });

  test("4.15 search: case-insensitive over email, first and last name (and full name) and phone", async () => {
    const ws = await createWorkspace(db.sql);
    const rows = [
      { email: "ada@analytical.test", first_name: "Ada", last_name: "Lovelace", phone: "2025550143" },
      { email: "grace@navy.test", first_name: "Grace", last_name: "Hopper", phone: "+1 (303) 555-0199" },
      { email: "alan@bletchley.test", first_name: "Alan", last_name: "Turing", phone: null },
      { email: "percent@x.test", first_name: "100%", last_name: "Sure_Thing", phone: null },
    ].map((r) => ({ ...r, workspace_id: ws.id }));
    await db.sql`insert into contacts ${db.sql(rows)}`;
    const found = async (search: string) =>
      (await list(ws.owner.claims, { workspaceId: ws.id, search, sortBy: "name", sortDir: "asc" })).data.map(
        (c) => c.first_name,
      );
    expect(await found("ANALYTICAL")).toEqual(["Ada"]);
    expect(await found("hop")).toEqual(["Grace"]);
    expect(await found("ada lovelace")).toEqual(["Ada"]);
    expect(await found("a")).toEqual(["Ada", "Alan", "Grace"]);
    expect(await found("555-0143")).toEqual(["Ada"]);
    expect(await found("(202) 555-0143")).toEqual(["Ada"]);
    expect(await found("3035550199")).toEqual(["Grace"]);
    expect(await found("100%")).toEqual(["100%"]);
    expect(await found("e_t")).toEqual(["100%"]); // in 'sure_thing'
    expect(await found("t_x")).toEqual([]); // '_' is literal: no wildcard match of 't@x'
    expect(await found("0%s")).toEqual([]); // '%' is literal
    expect(await found("nobody")).toEqual([]);
  });

  test("4.15 source is an exact match; eventId keeps contacts registered for the event", async () => {
    const ws = await createWorkspace(db.sql);
    const a = await createContact(db.sql, ws.id, { source: "form" });
    const b = await createContact(db.sql, ws.id, { source: "event" });
    const c = await createContact(db.sql, ws.id, { source: "event" });
    const [ev] = await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Gala') returning id`;
    const [ev2] =
      await db.sql`insert into events (workspace_id, name) values (${ws.id}, 'Other') returning id`;
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, status) values
      (${ws.id}, ${ev.id}, ${a.id}, 'registered'), (${ws.id}, ${ev.id}, ${b.id}, 'cancelled'),
      (${ws.id}, ${ev2.id}, ${c.id}, 'registered')`;
    const ids = async (p: Partial<GetContactsParams>) =>
      (await allIds(ws.owner.claims, { workspaceId: ws.id, ...p })).sort();
    expect(await ids({ source: "event" })).toEqual([b.id, c.id].sort());
    expect(await ids({ source: "Event" })).toEqual([]);
    expect(await ids({ eventId: ev.id })).toEqual([a.id]);
    expect(await ids({ eventId: ev.id, source: "event" })).toEqual([]);
  });

  test("4.15/3.4 each row carries its tags, its suppressions and the badge", async () => {
    const ws = await createWorkspace(db.sql);
    const spam = await createContact(db.sql, ws.id, { email: "s@x.test", is_subscribed: true });
    const unsub = await createContact(db.sql, ws.id, { email: "u@x.test", unsubscribed_at: new Date() });
    const sub = await createContact(db.sql, ws.id, { email: "y@x.test", is_subscribed: true });
    await db.sql`insert into contact_suppressions (contact_id, reason) values
      (${spam.id}, 'complaint'), (${spam.id}, 'bounce'), (${unsub.id}, 'unsubscribe')`;
    const [vip] =
      await db.sql`insert into tags (workspace_id, name, color) values (${ws.id}, 'VIP', '#f00') returning id`;
    await db.sql`insert into contact_tags (contact_id, tag_id) values (${sub.id}, ${vip.id})`;
    const page = await list(ws.owner.claims, { workspaceId: ws.id, sortBy: "name" });
    const byEmail = Object.fromEntries(page.data.map((c) => [c.email, c]));
    expect(byEmail["s@x.test"].suppressions).toEqual(["bounce", "complaint"]);
    expect(byEmail["s@x.test"].emailStatus).toBe("Spam");
    expect(byEmail["u@x.test"].emailStatus).toBe("Unsubscribed");
    expect(byEmail["y@x.test"].emailStatus).toBe("Subscribed");
    expect(byEmail["y@x.test"].tags).toEqual([{ id: vip.id, name: "VIP", color: "#f00" }]);
    expect(byEmail["u@x.test"].tags).toEqual([]);
  });

  test("5.4 getContacts: a member sees only their workspace, whatever workspaceId they pass", async () => {
    const mine = await createWorkspace(db.sql);
    const theirs = await createWorkspace(db.sql);
    await createContact(db.sql, theirs.id);
    const page = await list(mine.owner.claims, { workspaceId: theirs.id });
    expect([page.data.length, page.total]).toEqual([0, 0]);
  });

  test("4.15 getContacts: bad parameters get a clear error", async () => {
    const ws = await createWorkspace(db.sql);
    const result = await withUser(ws.owner.claims, (tx) =>
      getContacts(tx, { workspaceId: ws.id, tagIds: ["not-a-uuid"] }),
    );
    expect(result).toEqual({ error: new AppError("invalid", "Not a valid id.") });
  });
});
