import { afterEach, beforeEach, describe, expect, test } from "vitest";
import * as broadcastsApi from "@/lib/api/v1/broadcasts";
import { withService, withUser } from "@/lib/db/doors";
import { controlBroadcast } from "@/lib/email/control-broadcast";
import { dmarcDns, type TxtResolver } from "@/lib/email/dmarc";
import { runBroadcast } from "@/lib/email/flows/run-broadcast";
import { HANDLERS } from "@/worker/registry";
import { startFakeResend, type FakeResend } from "../fakes/resend";
import { apiKey, call, handlerOf } from "../helpers/api-v1";
import { setupTestDatabase } from "../helpers/db";
import { createContact, createWorkspace, type TestWorkspace } from "../helpers/factories";
import { runJob } from "../helpers/jobs";
import { signIn } from "../helpers/member-session";

/**
 * A broadcast's own From (name, address on a verified domain of its workspace) and reply-to, set
 * in the dashboard's composer or over REST (docs/decisions.md, "Sending domains and warm-up"),
 * through the fake Resend.
 */
const db = setupTestDatabase();
const domainActions = await import("@/app/(dashboard)/settings/email/sending-domain-actions");
const broadcasts = await import("@/app/(dashboard)/broadcasts/actions");

let resend: FakeResend | undefined;
const noDmarc: TxtResolver = async () => {
  throw Object.assign(new Error("queryTxt ENOTFOUND"), { code: "ENOTFOUND" });
};
beforeEach(async () => {
  resend = await startFakeResend();
  Object.assign(process.env, { RESEND_API_KEY: "re_test_bfrom", RESEND_BASE_URL: resend.url });
  dmarcDns.resolveTxt = noDmarc;
});
afterEach(async () => {
  delete process.env.RESEND_API_KEY;
  delete process.env.RESEND_BASE_URL;
  await resend?.stop();
  resend = undefined;
});

const uniqueDomain = () => `bfrom-${Math.random().toString(36).slice(2, 10)}.example.org`;
const checkJob = () => ({
  id: crypto.randomUUID(),
  name: "sending-domain-check",
  state: "active",
  data: { __v: 1 },
  retry_count: 0,
  retry_limit: 3,
  output: null,
});

async function verifiedDomain(ws: TestWorkspace, domain = uniqueDomain()) {
  signIn(ws.owner.claims);
  expect(await domainActions.addSendingDomainAction({ domain })).toMatchObject({
    success: expect.any(String),
  });
  resend!.setDomainStatus(domain);
  await runJob(HANDLERS["sending-domain-check"], checkJob());
  const [row] = await db.sql`select status from sending_domains where domain = ${domain}`;
  expect(row.status).toBe("verified");
  return domain;
}

function form(fields: Record<string, string>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) data.append(key, value);
  return data;
}
const BASE = { subject: "Season", body: "Hello {{unsubscribe_url}}", format: "markdown" };
const senderRows = (workspaceId: string) =>
  db.sql`select id, from_name, from_local, from_domain, reply_to from broadcasts
         where workspace_id = ${workspaceId} order by created_at, id`;

describe("a broadcast's own From and reply-to in the composer", () => {
  test("a From on a verified domain and a reply-to are stored, and Resend receives exactly that from and reply_to", async () => {
    const ws = await createWorkspace(db.sql);
    await db.sql`update workspaces set email_reply_to = 'workspace@lumiere.example',
                 postal_address = '1 Rue de la Paix, Paris' where id = ${ws.id}`;
    const domain = await verifiedDomain(ws);
    await createContact(db.sql, ws.id, { is_subscribed: true });
    signIn(ws.owner.claims);
    await broadcasts
      .createBroadcastAction(
        {},
        form({
          ...BASE,
          fromName: "Box office",
          fromLocal: "Tickets",
          fromDomain: domain,
          replyTo: "Reply@Lumiere.example",
        }),
      )
      .catch(() => null); // the redirect to the new draft
    const [b] = await senderRows(ws.id);
    expect(b).toMatchObject({
      from_name: "Box office",
      from_local: "tickets",
      from_domain: domain,
      reply_to: "reply@lumiere.example",
    });

    // editing the draft keeps what the form sends back; a copy carries the sender
    await broadcasts
      .updateBroadcastAction(
        b.id,
        {},
        form({
          ...BASE,
          subject: "Season 2",
          fromName: "Box office",
          fromLocal: "tickets",
          fromDomain: domain,
          replyTo: "reply@lumiere.example",
        }),
      )
      .catch(() => null);
    await broadcasts.duplicateBroadcastAction(b.id).catch(() => null); // the redirect to the copy
    const [edited] = await db.sql`select subject from broadcasts where id = ${b.id}`;
    expect(edited.subject).toBe("Season 2");
    const rows = await senderRows(ws.id);
    expect(rows).toHaveLength(2);
    for (const row of rows)
      expect(row).toMatchObject({
        from_name: "Box office",
        from_local: "tickets",
        from_domain: domain,
        reply_to: "reply@lumiere.example",
      });

    const input = { workspaceId: ws.id, broadcastId: b.id };
    await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }));
    await runBroadcast(input);
    expect(resend!.sent.map((e) => e.from)).toEqual([`"Box office" <tickets@${domain}>`]);
    expect(resend!.sent.map((e) => (e as { reply_to?: unknown }).reply_to)).toEqual([
      "reply@lumiere.example",
    ]);
  });

  test("a From on an unverified, another workspace's or a never-added domain is refused beside the field, and nothing is stored", async () => {
    const other = await createWorkspace(db.sql);
    const othersDomain = await verifiedDomain(other);
    const ws = await createWorkspace(db.sql);
    const pending = uniqueDomain();
    signIn(ws.owner.claims);
    await domainActions.addSendingDomainAction({ domain: pending });
    for (const fromDomain of [pending, othersDomain, "never-added.example"]) {
      const refused = await broadcasts.createBroadcastAction(
        {},
        form({ ...BASE, fromLocal: "news", fromDomain }),
      );
      expect(refused).toMatchObject({
        code: "invalid",
        errors: {
          fromDomain: `${fromDomain} is not a verified sending domain of this workspace: add it under Sending domains and verify it first.`,
        },
      });
    }
    const bad: [Record<string, string>, string, string][] = [
      [
        { fromLocal: "news letter", fromDomain: pending },
        "fromLocal",
        "Use letters, digits and . _ - + only, such as news or hello.",
      ],
      [{ fromLocal: "news", fromDomain: "" }, "fromDomain", "Choose one of your verified domains."],
      [{ fromName: "Us" }, "fromName", "A sender name goes with a From address on your verified domain."],
      [
        { replyTo: "a@b.example, c@d.example" },
        "replyTo",
        "Enter an email address, such as hello@example.org, or leave it empty.",
      ],
    ];
    for (const [fields, field, message] of bad)
      expect(await broadcasts.createBroadcastAction({}, form({ ...BASE, ...fields }))).toMatchObject({
        code: "invalid",
        errors: { [field]: message },
      });
    expect(await senderRows(ws.id)).toEqual([]);
  });

  test("a member of another workspace cannot set a broadcast's From or reply-to", async () => {
    const ws = await createWorkspace(db.sql);
    const domain = await verifiedDomain(ws);
    const other = await createWorkspace(db.sql);
    const outsider = other.owner;
    signIn(ws.owner.claims);
    await broadcasts.createBroadcastAction({}, form(BASE)).catch(() => null);
    const [b] = await senderRows(ws.id);

    // through the composer: the outsider's own workspace has no such draft and no such domain
    signIn(outsider.claims);
    const refused = await broadcasts.updateBroadcastAction(
      b.id,
      {},
      form({ ...BASE, fromLocal: "news", fromDomain: domain, replyTo: "evil@attacker.example" }),
    );
    expect(refused).toMatchObject({
      code: "invalid",
      errors: { fromDomain: expect.stringContaining("not a verified") },
    });
    const noDomain = await broadcasts.updateBroadcastAction(
      b.id,
      {},
      form({ ...BASE, replyTo: "evil@attacker.example" }),
    );
    expect(noDomain).toMatchObject({ code: "conflict" });
    // and straight at the database: members hold no write on broadcasts
    await expect(
      withUser(
        ws.owner.claims,
        (tx) => tx`update public.broadcasts set reply_to = 'evil@attacker.example' where id = ${b.id}`,
      ),
    ).rejects.toThrow(/permission denied/);
    expect(await senderRows(ws.id)).toEqual([
      { id: b.id, from_name: null, from_local: null, from_domain: null, reply_to: null },
    ]);
  });
});

describe("a broadcast's reply_to over REST", () => {
  test("an invalid reply_to is 400 naming the field, and nothing is stored; a valid one is what Resend receives", async () => {
    const ws = await createWorkspace(db.sql);
    await createContact(db.sql, ws.id, { is_subscribed: true });
    const key = await apiKey(db.sql, ws.id, ["email:write"]);
    const post = (body: object) =>
      call(handlerOf(broadcastsApi.create), {
        method: "POST",
        path: "/api/v1/broadcasts",
        key: key.raw,
        body,
        params: {},
      });
    for (const reply_to of [
      "not-an-address",
      "a@b.example\r\nBcc: c@d.example",
      "a@b.example, c@d.example",
    ]) {
      const bad = await post({ subject: "Hi", body: "Hello {{unsubscribe_url}}", reply_to });
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.error.fields)).toEqual(["reply_to"]);
    }
    expect(await senderRows(ws.id)).toEqual([]);

    const res = await post({
      subject: "Hi",
      body: "Hello {{unsubscribe_url}}",
      reply_to: "Desk@Lumiere.example",
    });
    expect(res.status).toBe(201);
    const input = { workspaceId: ws.id, broadcastId: (res.body as { id: string }).id };
    await withService((tx) => controlBroadcast(tx, { ...input, control: "start" }));
    await runBroadcast(input);
    expect(resend!.sent.map((e) => (e as { reply_to?: unknown }).reply_to)).toEqual(["desk@lumiere.example"]);
  });
});
