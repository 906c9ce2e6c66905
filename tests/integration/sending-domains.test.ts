import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import * as broadcastsApi from "@/lib/api/v1/broadcasts";
import { withService, withUser } from "@/lib/db/doors";
import { audienceSchema } from "@/lib/email/broadcast-audience";
import { createBroadcast } from "@/lib/email/broadcasts";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { dmarcDns, lookupDmarc, type TxtResolver } from "@/lib/email/dmarc";
import { deliverEmail } from "@/lib/email/flows/deliver-email";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { sendEmail } from "@/lib/email/send-email";
import { warmupCap } from "@/lib/email/warm-up";
import { HANDLERS } from "@/worker/registry";
import { startFakeResend, type FakeResend } from "../fakes/resend";
import { apiKey, call, handlerOf } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { addMember, createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { runJob } from "../helpers/jobs";
import { signIn } from "../helpers/member-session";

/**
 * Each workspace's own sending domain and its warm-up (docs/decisions.md, "Sending domains and
 * warm-up"; DESIGN section 9: sending_domains (workspace_id, domain, status)), through the fake
 * Resend's Domains API.
 */
const db = setupTestDatabase();
const actions = await import("@/app/(dashboard)/settings/email/sending-domain-actions");

let resend: FakeResend | undefined;
const noDmarc: TxtResolver = async () => {
  throw Object.assign(new Error("queryTxt ENOTFOUND"), { code: "ENOTFOUND" });
};
beforeEach(async () => {
  resend = await startFakeResend();
  Object.assign(process.env, { RESEND_API_KEY: "re_test_domains", RESEND_BASE_URL: resend.url });
  dmarcDns.resolveTxt = noDmarc; // no test reaches the network's DNS
});
afterEach(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  delete process.env.SENDING_WARMUP_START;
  vi.useRealTimers();
  await resend?.stop();
  resend = undefined;
});

const uniqueDomain = () => `news-${Math.random().toString(36).slice(2, 10)}.example.org`;
const domainRows = (domain: string) =>
  db.sql`select workspace_id, domain, status, provider_domain_id, records, region, verified_at, dmarc
         from sending_domains where domain = ${domain}`;

/** A domain the workspace's owner added through the settings page, verified by the fake's DNS and the job. */
async function verifiedDomain(ws: TestWorkspace, domain = uniqueDomain()) {
  signIn(ws.owner.claims);
  expect(await actions.addSendingDomainAction({ domain })).toMatchObject({ success: expect.any(String) });
  resend!.setDomainStatus(domain);
  await runJob(HANDLERS["sending-domain-check"], checkJob());
  expect((await domainRows(domain))[0].status).toBe("verified");
  return domain;
}

const checkJob = (data: object = {}) => ({
  id: crypto.randomUUID(),
  name: "sending-domain-check",
  state: "active",
  data: { ...data, __v: 1 },
  retry_count: 0,
  retry_limit: 3,
  output: null,
});

async function startedBroadcast(ws: TestWorkspace) {
  const { id } = await withUser(ws.owner.claims, (tx) =>
    createBroadcast(tx, {
      workspaceId: ws.id,
      createdBy: ws.owner.id,
      subject: "Season",
      body: "Hello {{unsubscribe_url}}",
      audience: audienceSchema.parse({}),
    }),
  );
  const input = { workspaceId: ws.id, broadcastId: id };
  await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }));
  return input;
}

describe("sending domains through Resend's Domains API", () => {
  test("an owner adds a domain: typed in capitals with a trailing dot, it is stored lowercased with the DNS records Resend returned", async () => {
    const ws = await createWorkspace(db.sql);
    const domain = uniqueDomain();
    signIn(ws.owner.claims);
    const result = await actions.addSendingDomainAction({
      domain: ` ${domain.toUpperCase()}. `,
      region: "eu-west-1",
    });
    expect(result).toMatchObject({
      success: `${domain} added: create the DNS records below, then check it.`,
    });

    const [row] = await domainRows(domain);
    const [provider] = [...resend!.domains.values()];
    expect(row).toMatchObject({
      workspace_id: ws.id,
      status: "not_started",
      provider_domain_id: provider.id,
      region: "eu-west-1",
      verified_at: null,
      dmarc: { found: false, record: null, policy: null },
    });
    expect(row.records).toEqual(provider.records);
    expect(row.records.map((r: { record: string; type: string }) => `${r.record} ${r.type}`)).toEqual([
      "SPF MX",
      "SPF TXT",
      "DKIM TXT",
    ]);
  });

  test("a domain that is not a hostname is refused beside the field, and neither Resend nor the database hears of it", async () => {
    const ws = await createWorkspace(db.sql);
    signIn(ws.owner.claims);
    for (const [domain, message] of [
      ["news@example.org", "Enter only the domain (example.org), not an email address."],
      ["https://example.org/x", "Enter only the domain (example.org), without https:// or a path."],
      [
        "localhost",
        "Enter a domain such as example.org or mail.example.org: letters, digits, hyphens and dots.",
      ],
      [
        "-bad-.example.org",
        "Enter a domain such as example.org or mail.example.org: letters, digits, hyphens and dots.",
      ],
    ])
      expect(await actions.addSendingDomainAction({ domain })).toMatchObject({
        code: "invalid",
        message,
      });
    expect(resend!.domains.size).toBe(0);
    expect(
      (await db.sql`select count(*)::int as n from sending_domains where workspace_id = ${ws.id}`)[0].n,
    ).toBe(0);
  });

  test("verification: the job's sweep stores the status Resend reports once the DNS records are in place", async () => {
    const ws = await createWorkspace(db.sql);
    const domain = uniqueDomain();
    signIn(ws.owner.claims);
    await actions.addSendingDomainAction({ domain });

    // before the records exist: Resend is asked to verify, and says pending
    await runJob(HANDLERS["sending-domain-check"], checkJob());
    expect((await domainRows(domain))[0]).toMatchObject({ status: "pending", verified_at: null });

    resend!.setDomainStatus(domain);
    await runJob(HANDLERS["sending-domain-check"], checkJob());
    const [row] = await domainRows(domain);
    expect(row).toMatchObject({ status: "verified", verified_at: expect.any(Date) });
    expect(row.records.every((r: { status: string }) => r.status === "verified")).toBe(true);
  });

  test("Check now: an owner's check verifies at once and reads the domain's DMARC record", async () => {
    const ws = await createWorkspace(db.sql);
    const domain = uniqueDomain();
    signIn(ws.owner.claims);
    await actions.addSendingDomainAction({ domain });
    const [{ id }] = await db.sql`select id from sending_domains where domain = ${domain}`;
    resend!.setDomainStatus(domain);
    dmarcDns.resolveTxt = async (name) =>
      name === `_dmarc.${domain}` ? [["v=DMARC1; p=quarantine; ", "rua=mailto:d@", domain]] : [];
    expect(await actions.checkSendingDomainAction(id)).toEqual({
      success: `${domain} is verified: mail can leave from it.`,
    });
    expect((await domainRows(domain))[0]).toMatchObject({
      status: "verified",
      dmarc: { found: true, policy: "quarantine", record: `v=DMARC1; p=quarantine; rua=mailto:d@${domain}` },
    });
  });

  test("a domain verified by one workspace cannot be added by another: 409 domain_taken, and Resend is not asked", async () => {
    const first = await createWorkspace(db.sql);
    const domain = await verifiedDomain(first);
    const second = await createWorkspace(db.sql);
    signIn(second.owner.claims);
    const before = resend!.domains.size;
    expect(await actions.addSendingDomainAction({ domain })).toEqual({
      code: "domain_taken",
      errors: { domain: "This domain is already verified for sending by another account on this service." },
    });
    expect(resend!.domains.size).toBe(before);
    expect((await domainRows(domain)).map((r) => r.workspace_id)).toEqual([first.id]);
    // and the database holds it whoever writes: a second verified row of the domain is refused
    await expect(
      db.sql`insert into sending_domains (workspace_id, domain, status) values (${second.id}, ${domain}, 'verified')`,
    ).rejects.toThrow(/sending_domains_verified_key/);
  });

  test("members who are not owners or admins cannot add domains: not through the action, not through PostgREST", async () => {
    const ws = await createWorkspace(db.sql);
    const member = await addMember(db.sql, ws.id, "member");
    signIn(member.claims);
    const domain = uniqueDomain();
    expect(await actions.addSendingDomainAction({ domain })).toEqual({
      code: "forbidden",
      message: "Only owners and admins can manage sending domains.",
    });
    expect(resend!.domains.size).toBe(0);

    // even an admin cannot write the table directly: the status is Resend's
    const admin = await addMember(db.sql, ws.id, "admin");
    for (const who of [member, admin])
      await expect(
        withUser(
          who.claims,
          (tx) =>
            tx`insert into sending_domains (workspace_id, domain, status) values (${ws.id}, ${domain}, 'verified')`,
        ),
      ).rejects.toThrow(/permission denied/);
    await expect(
      withUser(
        admin.claims,
        (tx) =>
          tx`update workspaces set email_from_local = 'ceo', email_from_domain = 'bank.example' where id = ${ws.id}`,
      ),
    ).rejects.toThrow(/permission denied/);
    expect(await domainRows(domain)).toHaveLength(0);
  });

  test("removing a domain removes it at Resend and here, and the workspace's From on it", async () => {
    const ws = await createWorkspace(db.sql);
    const domain = await verifiedDomain(ws);
    await actions.saveSenderAction({ fromName: "", fromLocal: "news", fromDomain: domain });
    const [{ id }] = await db.sql`select id from sending_domains where domain = ${domain}`;
    expect(await actions.removeSendingDomainAction(id)).toMatchObject({ success: expect.any(String) });
    expect(resend!.domains.size).toBe(0);
    expect(await domainRows(domain)).toHaveLength(0);
    const [w] = await db.sql`select email_from_local, email_from_domain from workspaces where id = ${ws.id}`;
    expect(w).toEqual({ email_from_local: null, email_from_domain: null });
  });
});

describe("DMARC lookup", () => {
  test("reads the v=DMARC1 record of _dmarc.<domain> and its policy; no record is an answer, a failing server an error", async () => {
    const asked: string[] = [];
    const found = await lookupDmarc("example.org", async (name) => {
      asked.push(name);
      return [["some-other=txt"], ["v=DMARC1; p=Reject; pct=100"]];
    });
    expect(asked).toEqual(["_dmarc.example.org"]);
    expect(found).toMatchObject({ found: true, record: "v=DMARC1; p=Reject; pct=100", policy: "reject" });
    expect(await lookupDmarc("example.org", noDmarc)).toMatchObject({ found: false, policy: null });
    expect(await lookupDmarc("example.org", async () => [["v=spf1 -all"]])).toMatchObject({ found: false });
    const failing: TxtResolver = async () => {
      throw Object.assign(new Error("timeout"), { code: "ETIMEOUT" });
    };
    expect(await lookupDmarc("example.org", failing)).toMatchObject({ found: false, error: "ETIMEOUT" });
  });
});

describe("the From of a workspace's mail", () => {
  test("a workspace's From on its verified domain is what Resend receives, for a broadcast and a single email", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`update workspaces set email_reply_to = 'box@lumiere.example' where id = ${ws.id}`;
    const domain = await verifiedDomain(ws);
    expect(
      await actions.saveSenderAction({ fromName: "Théâtre Lumière", fromLocal: "News", fromDomain: domain }),
    ).toEqual({ success: `Mail now leaves from news@${domain}.` });
    const c = await createContact(db.sql, ws.id, { is_subscribed: true });

    const input = await startedBroadcast(ws);
    expect((await runBroadcast(input)).status).toBe("done");
    const queued = await withService((tx) =>
      sendEmail(tx, {
        workspaceId: ws.id,
        contactId: c.id,
        to: c.email,
        kind: "transactional",
        subject: "Your tickets",
        html: "<p>See you</p>",
        text: "See you",
      }),
    );
    await deliverEmail(queued.id);
    expect(resend!.sent.map((e) => e.from)).toEqual([
      `"Théâtre Lumière" <news@${domain}>`,
      `"Théâtre Lumière" <news@${domain}>`,
    ]);
    expect(resend!.sent.map((e) => (e as { reply_to?: unknown }).reply_to)).toEqual([
      "box@lumiere.example",
      "box@lumiere.example",
    ]);
  });

  test("a From on an unverified or another workspace's domain is refused 400 beside the field, and nothing is stored", async () => {
    const other = await createWorkspace(db.sql);
    const othersDomain = await verifiedDomain(other);
    const ws = await createWorkspace(db.sql);
    const pending = uniqueDomain();
    signIn(ws.owner.claims);
    await actions.addSendingDomainAction({ domain: pending });
    for (const fromDomain of [pending, othersDomain, "never-added.example"]) {
      const refused = await actions.saveSenderAction({ fromName: "Us", fromLocal: "news", fromDomain });
      expect(refused).toMatchObject({
        code: "invalid",
        errors: {
          fromDomain: `${fromDomain} is not a verified sending domain of this workspace: add it under Sending domains and verify it first.`,
        },
      });
    }
    const [w] =
      await db.sql`select email_from_name, email_from_local, email_from_domain from workspaces where id = ${ws.id}`;
    expect(w).toEqual({ email_from_name: null, email_from_local: null, email_from_domain: null });

    // a broadcast over REST
    const key = await apiKey(db.sql, ws.id, ["email:write"]);
    const res = await call(handlerOf(broadcastsApi.create), {
      method: "POST",
      path: "/api/v1/broadcasts",
      key: key.raw,
      body: { subject: "Hi", body: "Hello {{unsubscribe_url}}", from_email: `news@${pending}` },
      params: {},
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: {
        code: "invalid_request",
        fields: { from_email: expect.stringContaining("not a verified sending domain") },
      },
    });
    // an address that is not one (a NUL byte, a second address) is refused the same way, never a 500
    for (const from_email of [`news@${pending}\u0000`, `a@${pending}, b@x.example`, "news@"]) {
      const bad = await call(handlerOf(broadcastsApi.create), {
        method: "POST",
        path: "/api/v1/broadcasts",
        key: key.raw,
        body: { subject: "Hi", body: "Hello {{unsubscribe_url}}", from_email },
        params: {},
      });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.error.fields)).toEqual(["from_email"]);
    }
    const [{ n }] = await db.sql`select count(*)::int as n from broadcasts where workspace_id = ${ws.id}`;
    expect(n).toBe(0);
  });

  test("a broadcast's own From over REST, on a verified domain, is what Resend receives", async () => {
    const ws = await createWorkspace(db.sql);
    const domain = await verifiedDomain(ws);
    await createContact(db.sql, ws.id, { is_subscribed: true });
    const key = await apiKey(db.sql, ws.id, ["email:write"]);
    const res = await call(handlerOf(broadcastsApi.create), {
      method: "POST",
      path: "/api/v1/broadcasts",
      key: key.raw,
      body: {
        subject: "Hi",
        body: "Hello {{unsubscribe_url}}",
        from_email: `Box.Office@${domain}`,
        from_name: "Box office",
      },
      params: {},
    });
    expect(res.status).toBe(201);
    const input = { workspaceId: ws.id, broadcastId: (res.body as { id: string }).id };
    await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }));
    await runBroadcast(input);
    expect(resend!.sent.map((e) => e.from)).toEqual([`"Box office" <box.office@${domain}>`]);
  });

  test("a verified domain whose DNS records break is read again within a day, and its mail goes back to the platform's address", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`update workspaces set name = 'Club' where id = ${ws.id}`;
    const domain = await verifiedDomain(ws);
    await actions.saveSenderAction({ fromName: "", fromLocal: "news", fromDomain: domain });
    resend!.setDomainStatus(domain, "failed");
    await runJob(HANDLERS["sending-domain-check"], checkJob());
    expect((await domainRows(domain))[0].status).toBe("verified"); // read less than a day ago
    await db.sql`update sending_domains set last_checked_at = now() - interval '25 hours' where domain = ${domain}`;
    await runJob(HANDLERS["sending-domain-check"], checkJob());
    expect((await domainRows(domain))[0]).toMatchObject({ status: "failed", verified_at: null });
    await createContact(db.sql, ws.id, { is_subscribed: true });
    await runBroadcast(await startedBroadcast(ws));
    expect(resend!.sent.map((e) => e.from)).toEqual(['"Club" <no-reply@example.com>']);
  });

  test("without a verified domain mail keeps leaving from the platform's address in the workspace's name", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`update workspaces set name = 'Club', email_from_local = 'x', email_from_domain = 'forged.example' where id = ${ws.id}`;
    await createContact(db.sql, ws.id, { is_subscribed: true });
    await runBroadcast(await startedBroadcast(ws));
    expect(resend!.sent.map((e) => e.from)).toEqual(['"Club" <no-reply@example.com>']);
  });
});

describe("warm-up of a new domain", () => {
  test("the cap doubles per day of sending until it reaches the uncapped level", () => {
    const schedule = { start: 50, uncappedAt: 50_000 };
    expect([0, 1, 2, 3, 9, 10].map((n) => warmupCap(n, schedule))).toEqual([50, 100, 200, 400, 25_600, null]);
    expect(warmupCap(0, { start: 0, uncappedAt: 50_000 })).toBeNull();
  });

  test("two broadcasts of the workspace sending at once share the domain's one daily cap", async () => {
    process.env.SENDING_WARMUP_START = "3";
    const ws = await createWorkspace(db.sql);
    const domain = await verifiedDomain(ws);
    await actions.saveSenderAction({ fromName: "", fromLocal: "news", fromDomain: domain });
    for (let i = 0; i < 6; i++) await createContact(db.sql, ws.id, { is_subscribed: true });
    const [a, b] = [await startedBroadcast(ws), await startedBroadcast(ws)];
    const outcomes = await Promise.all([runBroadcast(a), runBroadcast(b)]);
    expect(outcomes.map((o) => o.status)).toEqual(["done", "done"]);
    expect(resend!.sent).toHaveLength(3);
    const [day] = await db.sql`select d.sent from sending_domain_days d
      join sending_domains s on s.id = d.sending_domain_id where s.domain = ${domain}`;
    expect(day.sent).toBe(3);
  });

  test("a broadcast sends up to the day's cap, leaves the rest queued for the next UTC day, and sends it then", async () => {
    process.env.SENDING_WARMUP_START = "2";
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2031-03-10T15:00:00Z"));
    const ws = await createWorkspace(db.sql);
    const domain = await verifiedDomain(ws);
    await actions.saveSenderAction({ fromName: "", fromLocal: "news", fromDomain: domain });
    for (let i = 0; i < 5; i++) await createContact(db.sql, ws.id, { is_subscribed: true });
    const input = await startedBroadcast(ws);

    expect(await runBroadcast(input)).toEqual({
      status: "done",
      output: { batches: 1, waitingUntil: "2031-03-11T00:00:00.000Z" },
    });
    expect(resend!.sent).toHaveLength(2);
    const [b] = await db.sql`select status, warmup_until from broadcasts where id = ${input.broadcastId}`;
    expect(b.status).toBe("sending"); // not failed, not done: the rest waits
    expect(b.warmup_until.toISOString()).toBe("2031-03-11T00:00:00.000Z"); // its page says until when
    const [job] = await db.sql`
      select start_after from pgboss.job
      where name = 'broadcast' and data->>'broadcastId' = ${input.broadcastId} and singleton_key like 'warm-up:%'`;
    expect(new Date(job.start_after).toISOString()).toBe("2031-03-11T00:00:00.000Z");
    // a second run the same day sends nothing more
    await runBroadcast(input);
    expect(resend!.sent).toHaveLength(2);

    vi.setSystemTime(new Date("2031-03-11T00:00:05Z")); // the next day: the cap is 4
    expect((await runBroadcast(input)).status).toBe("done");
    expect(resend!.sent).toHaveLength(5);
    expect(new Set(resend!.sent.map((e) => e.to)).size).toBe(5);
    const [after] = await db.sql`select status, warmup_until from broadcasts where id = ${input.broadcastId}`;
    expect(after).toEqual({ status: "sent", warmup_until: null });
    const days = await db.sql`select day::text, sent from sending_domain_days d
      join sending_domains s on s.id = d.sending_domain_id where s.domain = ${domain} order by day`;
    expect(days.map((d) => [d.day, d.sent])).toEqual([
      ["2031-03-10", 2],
      ["2031-03-11", 3],
    ]);
  });
});
