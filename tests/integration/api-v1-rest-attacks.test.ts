import fc from "fast-check";
import { beforeAll, describe, expect, test } from "vitest";
import { V1_OPERATIONS, type AnyApiOperation } from "@/lib/api/v1";
import * as contactsApi from "@/lib/api/v1/contacts";
import * as segmentsApi from "@/lib/api/v1/segments";
import * as timelineApi from "@/lib/api/v1/timeline";
import * as eventsApi from "@/lib/api/v1/events";
import * as webhookEndpointsApi from "@/lib/api/v1/webhook-endpoints";
import { API_SCOPES, type ApiScope } from "@/lib/api/v1/scopes";
import { withService } from "@/lib/db/doors";
import { issueTicket } from "@/lib/events/tickets/issue-ticket";
import { TIMELINE_KINDS, type TimelineKind } from "@/lib/contacts/timeline/types";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/outbound/event-types";
import { apiKeyFor, attackTargets, callOp, expectDocumented } from "../helpers/api-v1";
import { fuzzInputs } from "../helpers/api-v1-fuzz";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { createForm } from "../helpers/forms";

/**
 * docs/api.md under attack, for every operation of V1_OPERATIONS outside the contacts area (events,
 * registrations, transactions, refunds, forms, submissions, webhook endpoints, segments, broadcasts and
 * the contact timeline): a key without the scope (403),
 * revoked or expired (401), another workspace's ids (404), and fuzzed inputs (fast-check, from the
 * document's schemas and hostile strings): never a 500, every answer as documented, nothing written
 * outside the key's workspace. Then narrow keys fuzzed over the timeline, segments, contacts and
 * webhook subscriptions of their own workspace: no answer carries another area's data
 * (docs/api.md, "Scopes and the data they reach").
 */
const db = setupTestDatabase();

let ws: TestWorkspace;
let victim: TestWorkspace;
const victimRows: Record<string, string> = {};
/** The check-in attack's body: the victim's own ticket, signed in beforeAll */
const victimTicket = { ticket: "" };

/**
 * Every operation of V1_OPERATIONS but the contacts area's (tests/integration/api-v1-contacts-attacks.test.ts
 * attacks those), with what an attack on it needs beside the operation itself: a valid body for a
 * write, and the victim's row its `{id}` names. An operation with `{id}` and no victim row here
 * fails the cross-workspace test, so a new operation cannot go unattacked.
 */
const FIXTURES: Record<string, { body?: unknown; victimId?: () => string }> = {
  listEventRegistrations: { victimId: () => victimRows.event },
  listContactTransactions: { victimId: () => victimRows.contact },
  refundTransaction: { body: { amount: "1.00" }, victimId: () => victimRows.transaction },
  listFormSubmissions: { victimId: () => victimRows.form },
  createWebhookEndpoint: { body: { url: "https://hooks.example.org/a", event_types: ["contact.created"] } },
  deleteWebhookEndpoint: { victimId: () => victimRows.endpoint },
  createSegment: {
    body: { name: "Everyone", filter: { version: 1, root: { kind: "group", op: "and", conditions: [] } } },
  },
  getSegment: { victimId: () => victimRows.segment },
  updateSegment: { body: { name: "Renamed" }, victimId: () => victimRows.segment },
  deleteSegment: { victimId: () => victimRows.segment },
  countSegment: { victimId: () => victimRows.segment },
  listContactTimeline: { victimId: () => victimRows.contact },
  getBroadcast: { victimId: () => victimRows.broadcast },
  createBroadcast: { body: { subject: "News", body: "Hello\n\n{{unsubscribe_url}}" } },
  sendBroadcast: { body: {}, victimId: () => victimRows.draftBroadcast },
  cancelBroadcast: { victimId: () => victimRows.draftBroadcast },
  createCampaign: {
    body: { name: "Drip", steps: [{ id: "hello", type: "send_email", subject: "Hi", body: "Hello" }] },
  },
  getCampaign: { victimId: () => victimRows.campaign },
  updateCampaign: { body: { name: "Renamed" }, victimId: () => victimRows.campaign },
  publishCampaign: { victimId: () => victimRows.campaign },
  enrollInCampaign: {
    body: { contact_id: "00000000-0000-4000-8000-000000000000" },
    victimId: () => victimRows.campaign,
  },
  listCampaignEnrollments: { victimId: () => victimRows.campaign },
  // a real ticket of the victim's event, at the victim's event: signed by their key, not ours
  checkInEventTicket: { body: victimTicket, victimId: () => victimRows.event },
  listContactMemberships: { victimId: () => victimRows.contact },
};

const contactsOperations = new Set<unknown>(Object.values(contactsApi));
// the public door's operation (spec 4.14: `?key=`, 403 for a revoked key, its own error body) is
// attacked in tests/integration/public-events-api.test.ts
const ENDPOINTS = attackTargets(
  V1_OPERATIONS.filter((op) => !contactsOperations.has(op) && op.access === undefined),
  FIXTURES,
);
type Endpoint = (typeof ENDPOINTS)[number];

/** Everything of the victim workspace an API write could touch, as one comparable value. */
async function victimState() {
  const [state] = await db.sql`
    select
      (select coalesce(json_agg(t.* order by t.id), '[]') from transactions t where t.workspace_id = ${victim.id}) as transactions,
      (select coalesce(json_agg(e.* order by e.id), '[]') from webhook_endpoints e where e.workspace_id = ${victim.id}) as endpoints,
      (select coalesce(json_agg(g.* order by g.id), '[]') from segments g where g.workspace_id = ${victim.id}) as segments,
      (select coalesce(json_agg(b.* order by b.id), '[]') from broadcasts b where b.workspace_id = ${victim.id}) as broadcasts,
      (select coalesce(json_agg(c.* order by c.id), '[]') from campaigns c where c.workspace_id = ${victim.id}) as campaigns,
      (select coalesce(json_agg(c.* order by c.id), '[]') from campaign_enrollments c where c.workspace_id = ${victim.id}) as enrollments,
      (select coalesce(json_agg(c.* order by c.id), '[]') from event_check_ins c where c.workspace_id = ${victim.id}) as check_ins,
      (select coalesce(json_agg(r.checked_in_at order by r.id), '[]') from event_registrations r where r.workspace_id = ${victim.id}) as attendance,
      (select count(*)::int from audit_log where workspace_id = ${victim.id}) as audit,
      (select count(*)::int from contacts where workspace_id = ${victim.id}) as contacts`;
  return state;
}

beforeAll(async () => {
  process.env.APP_URL = "http://crm.test";
  process.env.API_RATE_LIMIT = "1000000";
  ws = await createWorkspace(db.sql);
  victim = await createWorkspace(db.sql);
  const contact = await createContact(db.sql, victim.id);
  const [e] = await db.sql`insert into events (workspace_id, name, start_time, timezone)
                           values (${victim.id}, 'Theirs', now(), 'UTC') returning id`;
  const [t] = await db.sql`insert into transactions (workspace_id, contact_id, amount_paid, currency)
                           values (${victim.id}, ${contact.id}, 50, 'usd') returning id`;
  const [w] = await db.sql`insert into webhook_endpoints (workspace_id, url, event_types, secret_ciphertext)
                           values (${victim.id}, 'https://hooks.example.org/v', '{contact.created}', 'x') returning id`;
  const form = await createForm(db.sql, victim.id);
  const [g] = await db.sql`insert into segments (workspace_id, name, filter)
                           values (${victim.id}, 'Theirs', '{"version":1,"root":{"kind":"group","op":"and","not":false,"conditions":[]}}')
                           returning id`;
  const [b] = await db.sql`insert into broadcasts (workspace_id, subject, status, sent_at)
                           values (${victim.id}, 'Theirs', 'sent', now()) returning id`;
  const [draft] = await db.sql`insert into broadcasts (workspace_id, subject, body_text, status)
                               values (${victim.id}, 'Their draft', 'Hello', 'draft') returning id`;
  const [campaign] = await db.sql`insert into campaigns (workspace_id, name, status, steps)
                                  values (${victim.id}, 'Theirs', 'draft', '[{"id":"hi","type":"send_email","subject":"Hi","body":"Hello"}]')
                                  returning id`;
  const [registration] =
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid)
                                      values (${victim.id}, ${e.id}, ${contact.id}, 0) returning id`;
  victimTicket.ticket = (await withService((tx) =>
    issueTicket(tx, { workspaceId: victim.id, registrationId: registration.id }),
  ))!;
  Object.assign(victimRows, {
    campaign: campaign.id,
    broadcast: b.id,
    draftBroadcast: draft.id,
    contact: contact.id,
    event: e.id,
    transaction: t.id,
    endpoint: w.id,
    form: form.id,
    segment: g.id,
  });
});

const call = (
  e: Endpoint,
  key: string | undefined,
  id?: string,
  extra: { body?: unknown; query?: Record<string, string> } = {},
) =>
  callOp(e.op, {
    key,
    params: e.path.includes("{id}") ? { id: id ?? "00000000-0000-4000-8000-000000000000" } : {},
    body: extra.body ?? e.body,
    query: extra.query,
  });

/** Schema-derived and hostile inputs with a key of `scopes`: never a 500, always as documented, nothing of the victim's changed. */
async function fuzzAs(e: Endpoint, scopes: readonly ApiScope[], numRuns: number) {
  const key = await apiKeyFor(db.sql, ws.id, scopes);
  const before = await victimState();
  await fc.assert(
    fc.asyncProperty(fuzzInputs(e.method, e.path, Object.values(victimRows)), async (input) => {
      const res = await call(e, key.key, input.id, { body: input.body, query: input.query });
      expect(res.status, JSON.stringify(input)).toBeLessThan(500);
      await expectDocumented(res, e.method, e.path);
    }),
    { numRuns },
  );
  expect(await victimState()).toEqual(before);
}

describe.each(ENDPOINTS)("$method $path", (e) => {
  test("missing scope: a key with every other scope is 403 forbidden, nothing changes", async () => {
    const key = await apiKeyFor(
      db.sql,
      ws.id,
      API_SCOPES.filter((s) => s !== e.scope),
    );
    const before = await victimState();
    const res = await call(e, key.key, e.victimId?.());
    expect(res.status).toBe(403);
    expect(((await expectDocumented(res, e.method, e.path)) as { error: { code: string } }).error.code).toBe(
      "forbidden",
    );
    expect(await victimState()).toEqual(before);
  });

  test("revoked, expired, unknown or no key: 401 unauthorized, alike", async () => {
    const revoked = await apiKeyFor(db.sql, ws.id, [e.scope], { revoked: true });
    const expired = await apiKeyFor(db.sql, ws.id, [e.scope], { expiresAt: new Date(Date.now() - 1000) });
    const bodies = [];
    for (const key of [revoked.key, expired.key, "evk_made_up", undefined]) {
      const res = await call(e, key);
      expect(res.status).toBe(401);
      bodies.push(await expectDocumented(res, e.method, e.path));
    }
    expect(new Set(bodies.slice(0, 3).map((b) => JSON.stringify(b))).size).toBe(1);
  });

  if (e.path.includes("{id}"))
    test("cross-workspace: the victim's id is 404 not_found, as a made-up one, and nothing of theirs changes", async () => {
      expect(e.victimId, `${e.method} ${e.path}: a victim row in FIXTURES`).toBeDefined();
      const key = await apiKeyFor(db.sql, ws.id, [e.scope]);
      const before = await victimState();
      const theirs = await call(e, key.key, e.victimId!());
      const madeUp = await call(e, key.key, "00000000-0000-4000-8000-000000000000");
      expect([theirs.status, madeUp.status]).toEqual([404, 404]);
      expect(await expectDocumented(theirs, e.method, e.path)).toEqual(
        await expectDocumented(madeUp, e.method, e.path),
      );
      expect(await victimState()).toEqual(before);
    });

  test("fuzzed with schema-derived and hostile inputs: never a 500, always as documented, nothing written elsewhere", () =>
    fuzzAs(e, API_SCOPES, 40));
});

describe.each(ENDPOINTS)("$method $path with only its own scope", (e) => {
  test("fuzzed with a key holding only the operation's scope: never a 500, always as documented, nothing written elsewhere", () =>
    fuzzAs(e, [e.scope], 25));
});

describe("hostile text that Postgres cannot store", () => {
  test("a NUL character in a search or a description is 400 invalid_request, never a 500", async () => {
    const key = await apiKeyFor(db.sql, ws.id, API_SCOPES);
    const events = await callOp(eventsApi.list, {
      key: key.key,
      query: { search: "a\u0000b" },
    });
    expect(events.status).toBe(400);
    await expectDocumented(events, "GET", eventsApi.list.path);
    const regs = await callOp(eventsApi.listRegistrations, {
      key: key.key,
      params: { id: victimRows.event },
      query: { search: "\u0000" },
    });
    expect(regs.status).toBe(400);
    const hook = await callOp(webhookEndpointsApi.create, {
      key: key.key,
      body: { url: "https://hooks.example.org/a", event_types: ["contact.created"], description: "x\u0000" },
    });
    expect(hook.status).toBe(400);
    await expectDocumented(hook, "POST", webhookEndpointsApi.create.path);
  });
});

describe("bodies that are not JSON", () => {
  test("a form-encoded or XML body to a write is 415 unsupported, as documented, and nothing is stored", async () => {
    const own = await createWorkspace(db.sql);
    const key = await apiKeyFor(db.sql, own.id, API_SCOPES);
    for (const type of ["application/x-www-form-urlencoded", "text/xml"]) {
      const res = await callOp(webhookEndpointsApi.create, {
        key: key.key,
        body: "url=https://hooks.example.org/x&event_types=contact.created",
        headers: { "content-type": type },
      });
      expect(res.status).toBe(415);
      await expectDocumented(res, "POST", webhookEndpointsApi.create.path);
    }
    expect(await db.sql`select 1 from webhook_endpoints where workspace_id = ${own.id}`).toHaveLength(0);
  });
});

/**
 * The areas of docs/api.md, "Scopes and the data they reach", written out here rather than taken
 * from lib/api/v1/scopes.ts, so the fuzzer checks the document and not the code against itself.
 */
const CONDITION_AREA: Record<string, ApiScope> = {
  purchased: "transactions:read",
  form_submitted: "forms:read",
  email_engagement: "email:read",
  event_registered: "events:read",
  event_attended: "events:read",
};
const KIND_AREA: Record<TimelineKind, ApiScope> = {
  note: "contacts:read",
  consent: "contacts:read",
  change: "contacts:read",
  form: "forms:read",
  event: "events:read",
  payment: "transactions:read",
  email: "email:read",
  campaign: "campaigns:read",
};
const EVENT_AREA: Record<string, ApiScope> = {
  contact: "contacts:read",
  form: "forms:read",
  transaction: "transactions:read",
  // recurring money is read with the transactions (docs/api.md, "Scopes")
  membership: "transactions:read",
  payment: "transactions:read",
  event_registration: "events:read",
  rsvp: "events:read",
  email: "email:read",
  campaign: "contacts:read",
};
/** What each area's data looks like in an answer: none of it may reach a key without the scope. */
const MARKS: Record<string, string[]> = {
  "transactions:read": ["4321.09", "4,321.09"],
  "forms:read": ["payload-mark-5147"],
  "email:read": ["subject-mark-6612"],
  "events:read": ["event-mark-8843", "77.31"],
};
/** The address a consent came from: no key reads it (docs/decisions.md, "Scopes cover what they label"). */
const CONSENT_IP = "198.51.100.23";

type FilterNode = { kind: string; [k: string]: unknown };
const leafKinds = (n: FilterNode): string[] =>
  n.kind === "group" ? (n.conditions as FilterNode[]).flatMap(leafKinds) : [n.kind];
const needsOf = (filter: { root: FilterNode }) => [
  ...new Set(leafKinds(filter.root).flatMap((k) => (CONDITION_AREA[k] ? [CONDITION_AREA[k]] : []))),
];

const conditionArb: fc.Arbitrary<FilterNode> = fc.oneof(
  fc.record({ kind: fc.constant("search"), not: fc.boolean(), text: fc.constantFrom("a", "ex") }),
  fc.record({
    kind: fc.constant("consent"),
    not: fc.boolean(),
    state: fc.constantFrom("subscribed", "not_opted_in"),
  }),
  fc.record({ kind: fc.constant("created"), not: fc.boolean(), window: fc.constant({ withinDays: 30 }) }),
  fc.record({
    kind: fc.constant("purchased"),
    not: fc.boolean(),
    minAmount: fc.integer({ min: 0, max: 9000 }),
  }),
  fc.record({ kind: fc.constant("form_submitted"), not: fc.boolean() }),
  fc.record({ kind: fc.constant("event_registered"), not: fc.boolean() }),
  fc.record({ kind: fc.constant("event_attended"), not: fc.boolean() }),
  fc.record({
    kind: fc.constant("email_engagement"),
    not: fc.boolean(),
    event: fc.constantFrom("delivered", "opened"),
  }),
);
const groupArb = (conditions: fc.Arbitrary<FilterNode>) =>
  fc.record({
    kind: fc.constant("group"),
    op: fc.constantFrom("and", "or"),
    not: fc.boolean(),
    conditions: fc.array(conditions, { maxLength: 3 }),
  });
const filterArb = groupArb(fc.oneof(conditionArb, conditionArb, groupArb(conditionArb))).map((root) => ({
  version: 1,
  root,
}));

/** One request of a narrow key: an operation and its inputs, ids drawn by index from the live pools. */
const requestArb = fc.oneof(
  fc.record({
    op: fc.constant("timeline" as const),
    kinds: fc.subarray([...TIMELINE_KINDS]),
  }),
  fc.record({ op: fc.constant("count" as const), pick: fc.nat() }),
  fc.record({ op: fc.constant("contacts" as const), pick: fc.nat(), byEvent: fc.boolean() }),
  fc.record({ op: fc.constant("contact" as const) }),
  fc.record({ op: fc.constant("createSegment" as const), filter: filterArb }),
  fc.record({ op: fc.constant("patchSegment" as const), pick: fc.nat(), filter: filterArb }),
  fc.record({
    op: fc.constant("subscribe" as const),
    types: fc.subarray([...WEBHOOK_EVENT_TYPES], { minLength: 1, maxLength: 4 }),
  }),
);

describe("narrow keys over the timeline, segments and webhook subscriptions of their own workspace", () => {
  let own: TestWorkspace;
  let contactId: string;
  let eventId: string;
  /** segments of the workspace and the scopes their conditions need, as first stored */
  const segments: { id: string; filter: { root: FilterNode } }[] = [];

  beforeAll(async () => {
    own = await createWorkspace(db.sql);
    const c = await createContact(db.sql, own.id);
    contactId = c.id;
    await db.sql`update contacts set opt_in_ip = ${CONSENT_IP} where id = ${c.id}`;
    const form = await createForm(db.sql, own.id);
    [{ id: eventId }] = await db.sql`insert into events (workspace_id, name)
                                     values (${own.id}, 'event-mark-8843') returning id`;
    await db.sql`insert into consent_events (workspace_id, contact_id, action, flow, source, ip)
                 values (${own.id}, ${c.id}, 'subscribed', 'form', 'Form', ${CONSENT_IP})`;
    await db.sql`insert into form_submissions (workspace_id, form_id, contact_id, payload, submission_type)
                 values (${own.id}, ${form.id}, ${c.id}, ${db.sql.json({ email: c.email, note: "payload-mark-5147" })}, 'direct')`;
    await db.sql`insert into event_registrations (workspace_id, event_id, contact_id, amount_paid)
                 values (${own.id}, ${eventId}, ${c.id}, '77.31')`;
    await db.sql`insert into transactions (workspace_id, contact_id, amount_paid, currency)
                 values (${own.id}, ${c.id}, '4321.09', 'usd')`;
    await db.sql`insert into email_sends (workspace_id, contact_id, to_email, kind, status, subject)
                 values (${own.id}, ${c.id}, ${c.email}, 'marketing', 'sent', 'subject-mark-6612')`;
    // segments a member made in the dashboard, one per area, and one on the contact alone
    for (const kind of [...Object.keys(CONDITION_AREA), "created"]) {
      const condition =
        kind === "created" ? { kind, not: false, window: { withinDays: 30 } } : { kind, not: false };
      if (kind === "email_engagement") Object.assign(condition, { event: "delivered" });
      const filter = { version: 1, root: { kind: "group", op: "and", not: false, conditions: [condition] } };
      const [g] = await db.sql`insert into segments (workspace_id, name, filter)
                               values (${own.id}, ${kind}, ${db.sql.json(filter)}) returning id, filter`;
      segments.push(g as (typeof segments)[number]);
    }
  });

  const SCOPE_SETS: ApiScope[][] = [
    ["contacts:read", "contacts:write", "webhooks:write"],
    ...Object.keys(MARKS).map((lacking) => API_SCOPES.filter((s) => s !== lacking)),
  ];

  test.each(SCOPE_SETS.map((scopes) => [scopes.join(" "), scopes] as const))(
    "a key with %s: never another area's data, never a consent IP, nothing stored beyond its scopes",
    async (_, scopes) => {
      const k = await apiKeyFor(db.sql, own.id, scopes);
      const holds = (s: ApiScope) => scopes.includes(s);
      const forbidden = [
        CONSENT_IP,
        ...Object.entries(MARKS).flatMap(([s, m]) => (holds(s as ApiScope) ? [] : m)),
      ];
      const before = new Map(
        (await db.sql`select id, filter from segments where workspace_id = ${own.id}`).map((r) => [
          r.id as string,
          JSON.stringify(r.filter),
        ]),
      );
      await fc.assert(
        fc.asyncProperty(requestArb, async (r) => {
          const seg = "pick" in r ? segments[r.pick % segments.length] : undefined;
          let res: Response;
          let op: AnyApiOperation;
          if (r.op === "timeline") {
            op = timelineApi.list;
            const query: Record<string, string> = { limit: "100" };
            if (r.kinds.length) query.kind = r.kinds.join(",");
            res = await callOp(op, { key: k.key, params: { id: contactId }, query });
            // a kind asked for is answered only when the key reads its area
            if (res.status === 200) expect(r.kinds.map((kind) => KIND_AREA[kind]).every(holds)).toBe(true);
          } else if (r.op === "count") {
            op = segmentsApi.count;
            res = await callOp(op, { key: k.key, params: { id: seg!.id } });
            // the count oracle: a count is answered only when the key reads every condition's area
            if (res.status === 200) expect(needsOf(seg!.filter).every(holds), JSON.stringify(seg)).toBe(true);
          } else if (r.op === "contacts") {
            op = contactsApi.list;
            const query: Record<string, string> = r.byEvent ? { event_id: eventId } : { segment_id: seg!.id };
            res = await callOp(op, { key: k.key, query });
            if (res.status === 200)
              expect(
                r.byEvent ? holds("events:read") : needsOf(seg!.filter).every(holds),
                JSON.stringify(r),
              ).toBe(true);
          } else if (r.op === "contact") {
            op = contactsApi.get;
            res = await callOp(op, { key: k.key, params: { id: contactId } });
          } else if (r.op === "createSegment") {
            op = segmentsApi.create;
            res = await callOp(op, {
              key: k.key,
              body: { name: "Fuzzed", filter: r.filter },
            });
            if (res.status === 201) {
              const made = (await res.clone().json()) as { id: string; filter: { root: FilterNode } };
              segments.push({ id: made.id, filter: made.filter });
            }
          } else if (r.op === "patchSegment") {
            op = segmentsApi.update;
            res = await callOp(op, {
              key: k.key,
              params: { id: seg!.id },
              body: { filter: r.filter },
            });
            if (res.status === 200) seg!.filter = ((await res.clone().json()) as typeof seg & {}).filter;
          } else {
            op = webhookEndpointsApi.create;
            res = await callOp(op, {
              key: k.key,
              body: { url: `https://hooks.example.org/${r.types.length}`, event_types: r.types },
            });
          }
          expect(res.status, JSON.stringify(r)).toBeLessThan(500);
          const text = JSON.stringify(await expectDocumented(res, op.method, op.path));
          for (const mark of forbidden) expect(text, JSON.stringify(r)).not.toContain(mark);
        }),
        { numRuns: 60 },
      );
      // nothing the key stored reaches past its scopes: its segments' conditions and its endpoints' events
      for (const row of await db.sql`select id, filter from segments where workspace_id = ${own.id}`) {
        const changed = before.get(row.id) !== JSON.stringify(row.filter);
        if (changed) expect(needsOf(row.filter).every(holds), JSON.stringify(row.filter)).toBe(true);
      }
      for (const row of await db.sql`
        select e.event_types from webhook_endpoints e
        join audit_log a on a.target_id = e.id::text and a.action = 'webhook_endpoint.created'
        where e.workspace_id = ${own.id} and a.actor_api_key_id = ${k.id}`)
        for (const type of row.event_types as string[])
          expect(holds(EVENT_AREA[type.slice(0, type.indexOf("."))]), type).toBe(true);
    },
  );
});
